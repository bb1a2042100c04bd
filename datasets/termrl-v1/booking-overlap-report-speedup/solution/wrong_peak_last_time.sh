#!/bin/bash
# Plausible but wrong: the sweep keeps the peak with ">=", so when the largest overlap is reached
# more than once it reports the last such time instead of the smallest.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/overlaps.py"
s = open(p).read()
old = "            if depth > best:\n"
assert old in s
open(p, "w").write(s.replace(old, "            if depth >= best:\n"))
PY
