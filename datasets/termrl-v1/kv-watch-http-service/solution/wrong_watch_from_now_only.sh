#!/bin/bash
# Mistake: waitIndex is ignored; every watch waits for the next new event, so history is never replayed and a
# watch asking for an event that already happened hangs or sees a later one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kvwatch/server.py"
s = open(p).read()
old = """    start = int(q["waitIndex"]) if "waitIndex" in q else INDEX[0] + 1
"""
assert old in s
open(p, "w").write(s.replace(old, "    start = INDEX[0] + 1\n"))
PY
