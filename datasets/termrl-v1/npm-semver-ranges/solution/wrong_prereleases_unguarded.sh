#!/bin/bash
# Lets a prerelease satisfy any range whose comparators it passes (no same-version-tuple rule).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/semrange.py").read()
old = "            if not any(b[3] and b[:3] == ver[:3] for op, b in cset):\n                continue\n"
assert old in s
open("/app/semrange", "w").write(s.replace(old, "            pass\n"))
PY
chmod 755 /app/semrange
