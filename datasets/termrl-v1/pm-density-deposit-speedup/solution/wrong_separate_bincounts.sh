#!/bin/bash
# Plausible but wrong: one bincount per corner, added up afterwards. Each cell's contributions are then
# summed corner by corner instead of in particle order, so the mesh differs in the last bits.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pm/deposit.py"
s = open(p).read()
old = "    mesh = np.bincount(idx, weights=w, minlength=n * n)\n"
new = ("    mesh = (np.bincount(i0 * n + j0, weights=m * ex * ey, minlength=n * n)\n"
       "            + np.bincount(i1 * n + j0, weights=m * dx * ey, minlength=n * n)\n"
       "            + np.bincount(i0 * n + j1, weights=m * ex * dy, minlength=n * n)\n"
       "            + np.bincount(i1 * n + j1, weights=m * dx * dy, minlength=n * n))\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY
