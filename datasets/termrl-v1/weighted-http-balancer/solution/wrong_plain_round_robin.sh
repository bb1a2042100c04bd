#!/bin/bash
# Mistake: classic (non-smooth) weighted round-robin: each backend gets its weight's worth of requests in
# a row, so the pick order differs although the shares are right.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/lb/lb.py"
s = open(p).read()
old = """def pick(cands):
    total = sum(b.weight for b in cands)
    for b in cands:
        b.current += b.weight
    best = max(cands, key=lambda b: (b.current, -BACKENDS.index(b)))
    best.current -= total
    return best
"""
new = """RR = {"i": 0, "left": 0}


def pick(cands):
    for _ in range(2 * len(BACKENDS) + 1):
        b = BACKENDS[RR["i"] % len(BACKENDS)]
        if b in cands and RR["left"] < b.weight:
            RR["left"] += 1
            return b
        RR["i"] += 1
        RR["left"] = 0
    return cands[0]
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
