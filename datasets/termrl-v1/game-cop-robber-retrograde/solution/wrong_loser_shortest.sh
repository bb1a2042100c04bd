#!/bin/bash
# Mistake: a lost position gets its distance from the first (shortest) losing line found, as if the loser also
# hurried to the end, instead of the longest one the loser can hold out for.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/coprob.py").read()
old = """                count[p] -= 1
                if count[p] == 0:
                    res[p] = (winner, d + 1)"""
new = """                count[p] -= 1
                first.setdefault(p, d + 1)
                if count[p] == 0:
                    res[p] = (winner, first[p])"""
assert old in s
s = s.replace(old, new).replace("    q = deque()\n", "    q = deque()\n    first = {}\n", 1)
open("/app/coprob.py", "w").write(s)
PY
