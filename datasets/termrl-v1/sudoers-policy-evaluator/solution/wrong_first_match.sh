#!/bin/bash
# Mistake: the first rule with an outcome wins instead of the last one.
set -euo pipefail
cp /solution/sudocheck.py /app/sudocheck
python3 - <<'PY'
p = "/app/sudocheck"
s = open(p).read()
s = s.replace("            if outcome is not None:\n                final = outcome", "            if outcome is not None and final is None:\n                final = outcome")
open(p, "w").write(s)
PY
chmod +x /app/sudocheck
