#!/bin/bash
# No prerm: the __pycache__ that running tallyd creates under /usr/lib/tallyd survives removal.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/build-deb.sh").read()
a = s.index('cat > "$R/DEBIAN/prerm"')
b = s.index('chmod 755 "$R/DEBIAN/postinst"')
s = s[:a] + s[b:]
s = s.replace(' "$R/DEBIAN/prerm"', "")
assert "prerm" not in s
open("/app/build-deb.sh", "w").write(s)
PY
chmod 755 /app/build-deb.sh
