#!/bin/bash
# Mistake: createdIndex is overwritten on every update instead of keeping the index of the key's creation.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kvwatch/server.py"
s = open(p).read()
old = """    created = prev["createdIndex"] if prev else INDEX[0] + 1
"""
assert old in s
open(p, "w").write(s.replace(old, "    created = INDEX[0] + 1\n"))
PY
