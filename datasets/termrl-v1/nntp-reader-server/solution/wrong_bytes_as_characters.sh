#!/bin/bash
# Mistake: the :bytes overview field counts characters instead of octets.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/nntp/server.py"
s = open(p).read()
old = """len(text.encode()), lines)"""
assert old in s
open(p, "w").write(s.replace(old, """len(text), lines)"""))
PY
