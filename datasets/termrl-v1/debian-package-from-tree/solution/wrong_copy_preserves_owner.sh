#!/bin/bash
# Stages the files with cp -a and builds without forcing root ownership: the package carries the
# source tree's owner (uid 1000) and modes.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/build-deb.sh").read()
old = '''install -m 755 "$SRC/bin/tallyd" "$R/usr/bin/tallyd"
install -m 644 "$SRC/lib/core.py" "$R/usr/lib/tallyd/core.py"'''
new = '''cp -a "$SRC/bin/tallyd" "$R/usr/bin/tallyd"
cp -a "$SRC/lib/core.py" "$R/usr/lib/tallyd/core.py"'''
assert old in s
s = s.replace(old, new)
s = s.replace('install -m 644 "$SRC/conf/tallyd.conf" "$R/etc/tallyd/tallyd.conf"', 'cp -a "$SRC/conf/tallyd.conf" "$R/etc/tallyd/tallyd.conf"')
s = s.replace('install -m 644 "$SRC/copyright" "$R/usr/share/doc/tallyd/copyright"', 'cp -a "$SRC/copyright" "$R/usr/share/doc/tallyd/copyright"')
s = s.replace("dpkg-deb --root-owner-group -Zxz", "dpkg-deb -Zxz")
open("/app/build-deb.sh", "w").write(s)
PY
chmod 755 /app/build-deb.sh
