#!/bin/bash
# Mistake: any wrong knock resets to 0, even a knock on the sequence's first port (which should count as 1).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/knock/knock.py"
s = open(p).read()
old = """        elif port == SEQ[0]:
            k = 1
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
