#!/bin/bash
# Mistake: the Message-Authenticator of requests is verified, but responses never carry one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/radius/server.py"
s = open(p).read()
old = "def response(code, ident, req_auth, attrs, secret, with_ma):\n"
assert old in s
open(p, "w").write(s.replace(old, old + "    with_ma = False\n"))
PY
