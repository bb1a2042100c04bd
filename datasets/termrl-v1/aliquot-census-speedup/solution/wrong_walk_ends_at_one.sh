#!/bin/bash
# Plausible but wrong: the fast version ends a walk when it reaches 1 (the usual "the sequence ends
# at 1" reading, since s(1) = 0) instead of at the value 0, so every terminating walk is one step short.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/aliquot/census.py"
s = open(p).read()
old = "        done = x == 0\n"
assert old in s
s = s.replace(old, "        done = (x == 1) | (x == 0)\n")
open(p, "w").write(s)
PY
