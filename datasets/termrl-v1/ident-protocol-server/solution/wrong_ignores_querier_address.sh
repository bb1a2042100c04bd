#!/bin/bash
# Mistake: connections are matched on the two ports only; the querying host's address is not compared with the
# connection's remote address.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/identd/identd.py"
s = open(p).read()
old = """        if lp == lport and rp == rport and ra == client_ip:"""
assert old in s
open(p, "w").write(s.replace(old, """        if lp == lport and rp == rport:"""))
PY
