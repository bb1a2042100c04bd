#!/bin/bash
# Mistake: any agent may remove the jobs it lists, not only its own (only root may remove other users' jobs).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/lpd/lpd.py"
s = open(p).read()
old = """            mine = agent == "root" or job["user"] == agent
"""
assert old in s
open(p, "w").write(s.replace(old, "            mine = True\n"))
PY
