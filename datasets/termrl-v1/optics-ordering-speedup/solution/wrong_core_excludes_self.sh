#!/bin/bash
# Plausible but wrong: the core distance counts K neighbours *besides* the point itself (the other
# common reading of MinPts), so core distances and everything after them shift.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/optics/optics.py"
s = open(p).read()
for old, new in [("    has = np.flatnonzero(count >= min_pts)\n", "    has = np.flatnonzero(count >= min_pts + 1)\n"),
                 ("nd[start[has] + min_pts - 1]", "nd[start[has] + min_pts]")]:
    assert old in s
    s = s.replace(old, new)
open(p, "w").write(s)
PY
