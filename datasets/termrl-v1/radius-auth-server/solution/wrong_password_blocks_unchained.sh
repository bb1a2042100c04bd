#!/bin/bash
# Mistake: every 16-byte block of User-Password is unhidden with MD5(secret + Request Authenticator); the chaining
# through the previous ciphertext block is missing, so passwords longer than 16 bytes never match.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/radius/server.py"
s = open(p).read()
old = "        prev = block\n"
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
