#!/bin/bash
# Ships /etc/tallyd/tallyd.conf as an ordinary file (no DEBIAN/conffiles): upgrades overwrite local edits.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/build-deb.sh").read()
old = 'echo /etc/tallyd/tallyd.conf > "$R/DEBIAN/conffiles"\n'
assert old in s
s = s.replace(old, "").replace(' "$R/DEBIAN/conffiles"', "")
open("/app/build-deb.sh", "w").write(s)
PY
chmod 755 /app/build-deb.sh
