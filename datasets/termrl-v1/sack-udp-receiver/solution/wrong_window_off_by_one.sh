#!/bin/bash
# Mistake: the receive window accepts 65 packets (next .. next+64) instead of 64.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/rx/receiver.py"
s = open(p).read()
old = """        if off < limit and seq not in s["buf"]:"""
assert old in s
open(p, "w").write(s.replace(old, """        if off <= limit and seq not in s["buf"]:"""))
PY
