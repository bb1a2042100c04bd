#!/bin/bash
# Treats ^0.x.y like ^1.x.y: the upper bound is always the next major version.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/semrange.py").read()
old = "    if M != 0 or len(nums) == 1:\n"
assert old in s
open("/app/semrange", "w").write(s.replace(old, "    if True:\n"))
PY
chmod 755 /app/semrange
