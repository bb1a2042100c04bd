#!/bin/bash
# Mistake: a seeder's peer list also contains the other seeders.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tracker/tracker.py"
s = open(p).read()
old = """    if left == 0:
        others = [(pid, p) for pid, p in others if p["left"] != 0]
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
