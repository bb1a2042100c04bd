#!/bin/bash
# Mistake: the launcher keeps its own copy of every connection (it stores the accepted sockets), so when the
# program exits the client never sees the connection close.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/inetd/inetd.py"
s = open(p).read()
old = """        conn, (ip, cport) = s.accept()
        with conn:
"""
new = """        conn, (ip, cport) = s.accept()
        KEEP.append(conn)
        if True:
"""
assert old in s
s = s.replace(old, new).replace("LOCK = threading.Lock()\n", "LOCK = threading.Lock()\nKEEP = []\n")
open(p, "w").write(s)
PY
