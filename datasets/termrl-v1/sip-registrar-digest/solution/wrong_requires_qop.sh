#!/bin/bash
# Mistake: only digest responses with qop=auth are accepted; the plain RFC 2069 form (no qop) is always refused.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/sip/registrar.py"
s = open(p).read()
old = """        want = md5(":".join([ha1, auth["nonce"], ha2]))"""
assert old in s
open(p, "w").write(s.replace(old, """        want = None"""))
PY
