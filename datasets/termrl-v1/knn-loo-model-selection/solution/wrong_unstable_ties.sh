#!/bin/bash
# Plausible but wrong: the usual NumPy k-NN -- argpartition on the distances, then argsort of the k
# candidates. Neither is stable, so among equally distant rows it does not keep the earlier training row.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/knn/knn.py"
s = open(p).read()
old = "        key = d * n + cols\n"
assert old in s
s = s.replace(old, "        key = d\n")
open(p, "w").write(s)
PY
