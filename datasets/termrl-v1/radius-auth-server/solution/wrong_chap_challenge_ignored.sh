#!/bin/bash
# Mistake: CHAP responses are always checked against the Request Authenticator, even when a CHAP-Challenge
# attribute carries the challenge.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/radius/server.py"
s = open(p).read()
old = "            challenge = first.get(60, req_auth)\n"
assert old in s
open(p, "w").write(s.replace(old, "            challenge = req_auth\n"))
PY
