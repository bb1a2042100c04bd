#!/bin/bash
# Mistake: recognises only the exact spelling "none" and lets "None"/"NONE" through as unsupported.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/jwtriage.py").read()
old = "    if alg.lower() == \"none\":"
assert old in s
s = s.replace(old, "    if alg == \"none\":")
open("/app/jwtriage.py", "w").write(s)
PY
