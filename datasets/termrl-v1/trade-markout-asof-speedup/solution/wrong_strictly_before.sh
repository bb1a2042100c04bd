#!/bin/bash
# Plausible but wrong: the binary search finds the last quote strictly before the trade (bisect_left),
# the usual "quote in force before the trade" reading, so a quote stamped at the trade's own
# millisecond -- or exactly 60 s after it, for the markout -- is not used.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tca/markouts.py"
s = open(p).read()
for old, new in [("from bisect import bisect_right\n", "from bisect import bisect_left\n"),
                 ("    i = bisect_right(entry[0], t)\n", "    i = bisect_left(entry[0], t)\n")]:
    assert old in s, old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
