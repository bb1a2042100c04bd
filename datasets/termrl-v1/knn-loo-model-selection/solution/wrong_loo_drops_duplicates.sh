#!/bin/bash
# Plausible but wrong: leave-one-out implemented as "ignore neighbours at distance 0", which also drops
# exact duplicates of the point (other training rows), not only the point itself.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/knn/knn.py"
s = open(p).read()
old = "            d[rows - a, rows] = np.iinfo(np.int64).max // (2 * n)\n"
assert old in s
s = s.replace(old, "            d[d == 0] = np.iinfo(np.int64).max // (2 * n)\n")
open(p, "w").write(s)
PY
