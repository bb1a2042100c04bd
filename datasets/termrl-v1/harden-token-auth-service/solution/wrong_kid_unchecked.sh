#!/bin/bash
# Mistake: keeps loading the key from whatever path the kid header names.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/server.py").read()
s = s.replace("    if not isinstance(kid, str) or not KEY_NAME.match(kid):\n        return None\n", "")
s = s.replace("    if not key:\n        return None\n", "    if key is None:\n        return None\n")
open("/app/authsvc/server.py", "w").write(s)
PY
