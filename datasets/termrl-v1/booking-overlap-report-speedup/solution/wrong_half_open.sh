#!/bin/bash
# Plausible but wrong: the fast version treats bookings as half-open [start, end) -- the usual
# convention for time ranges -- so bookings that only touch at an end no longer clash, the sweep closes
# a booking before opening the next one at the same time, and touching bookings form separate blocks.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/overlaps.py"
s = open(p).read()
for old, new in [("(n - bisect_right(starts, b)) - bisect_left(ends, a)", "(n - bisect_left(starts, b)) - bisect_right(ends, a)"),
                 ("    events = [(a, 0) for a in starts] + [(b, 1) for b in ends]", "    events = [(a, 1) for a in starts] + [(b, 0) for b in ends]"),
                 ("        if kind == 0:", "        if kind == 1:"),
                 ("        if reach is None or a > reach:", "        if reach is None or a >= reach:")]:
    assert old in s, old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
