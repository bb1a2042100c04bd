#!/bin/bash
# Mistake: never tries the key-confusion forgery; HS256 tokens naming an RSA key are simply bad signatures.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/jwtriage.py").read()
old = "            return \"alg-confusion\""
assert old in s
s = s.replace(old, "            pass")
open("/app/jwtriage.py", "w").write(s)
PY
