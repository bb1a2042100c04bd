#!/bin/bash
# Mistake: MGET keys are grouped per node and the values are returned node by node, not in the order asked.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/rproxy/proxy.py"
s = open(p).read()
old = """        replies = [forward(nodes, [MULTI[cmd], k]) for k in args[1:]]
"""
new = """        keys = list(args[1:])
        if cmd == b"MGET":
            if any(SLOTS[key_slot(k)] is None for k in keys):
                refresh(nodes)
            keys.sort(key=lambda k: SLOTS[key_slot(k)] or "")
        replies = [forward(nodes, [MULTI[cmd], k]) for k in keys]
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
