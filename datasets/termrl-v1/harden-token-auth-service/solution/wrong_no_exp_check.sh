#!/bin/bash
# Mistake: fixes alg/kid/signature/login/role but never checks expiry.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/server.py").read()
s = s.replace("exp <= time.time()", "False")
open("/app/authsvc/server.py", "w").write(s)
PY
