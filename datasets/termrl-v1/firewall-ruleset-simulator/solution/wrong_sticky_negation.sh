#!/bin/bash
# Mistake: once '!' is seen, every following match of the rule is inverted.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/fwsim.py").read()
s = s.replace("        neg = False\n        i += 2\n", "        i += 2\n")
open("/app/fwsim", "w").write(s)
PY
chmod +x /app/fwsim
