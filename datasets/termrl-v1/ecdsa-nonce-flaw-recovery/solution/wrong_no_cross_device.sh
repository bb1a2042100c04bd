#!/bin/bash
# Mistake: recovers repeated and counter-affine nonces inside each device, but never follows a nonce
# from a recovered device to another device that used it too.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/nonce_audit.py").read()
s = s.replace("    changed = True\n    while changed:", "    changed = False\n    while changed:")
open("/app/nonce_audit.py", "w").write(s)
PY
