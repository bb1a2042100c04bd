#!/bin/bash
# Plausible but wrong: everything exact except the vote totals, computed as a masked row sum. np.sum adds
# 8 or more terms in a pairwise/unrolled order, not nearest first, so totals (and rare winners) differ in
# the last bits for k >= 8.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/knn/knn.py"
s = open(p).read()
old = "np.cumsum(np.where(labels == c, w, 0.0), axis=1)[:, -1]"
assert old in s
s = s.replace(old, "np.where(labels == c, w, 0.0).sum(axis=1)")
open(p, "w").write(s)
PY
