#!/bin/bash
# Plausible but wrong: the totals use NumPy's sum (pairwise summation) instead of the original's
# left-to-right running sums, so total_mass, gathered_sum and force_sum differ in the last bits.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pm/deposit.py"
s = open(p).read()
old = "    return float(np.cumsum(np.concatenate(([0.0], a)))[-1])\n"
assert old in s
open(p, "w").write(s.replace(old, "    return float(np.sum(a))\n"))
PY
