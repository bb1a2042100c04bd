#!/bin/bash
# Mistake: the negotiation follows the server's order of preference (first server algorithm the client also
# supports) instead of the client's.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kexprobe/probe.py"
s = open(p).read()
old = """def pick(client, server):
    for a in client:
        if a in server:
            return a
    return None
"""
new = """def pick(client, server):
    for a in server:
        if a in client:
            return a
    return None
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
