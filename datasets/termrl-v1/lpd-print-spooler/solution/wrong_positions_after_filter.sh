#!/bin/bash
# Mistake: a filtered queue listing numbers the shown jobs 1, 2, 3... instead of giving their places in the queue.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/lpd/lpd.py"
s = open(p).read()
old = """        for pos, job in enumerate(STATE["jobs"][queue], 1):
            if not selected(job, items):
                continue
"""
new = """        pos = 0
        for job in STATE["jobs"][queue]:
            if not selected(job, items):
                continue
            pos += 1
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
