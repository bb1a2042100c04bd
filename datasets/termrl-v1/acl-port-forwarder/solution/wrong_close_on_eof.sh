#!/bin/bash
# Mistake: when either side reaches EOF the whole relay is torn down, so a half-closed client never gets the
# upstream's answer.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/portfw/portfw.py"
s = open(p).read()
old = """    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass
"""
new = """    for sock in (src, dst):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
