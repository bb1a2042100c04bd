#!/bin/bash
# Mistake: a sticky request still runs the weighted pick (and then overrides it), so sticky traffic shifts
# the round-robin of everyone else.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/lb/lb.py"
s = open(p).read()
old = """                if first and sticky is not None and sticky.up(n):
                    b = sticky
"""
new = """                if first and sticky is not None and sticky.up(n):
                    pick([x for x in BACKENDS if x.up(n)])
                    b = sticky
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
