#!/bin/bash
# Plausible but wrong: the usual heap-with-counter idiom, (reachability, insertion count, point), so two
# seeds with the same reachability leave in the order they were (re)inserted, not by point number.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/optics/optics.py"
s = open(p).read()
for old, new in [("                push(heap, (r, o))\n", "                push(heap, (r, len(order) * 1000003 + k, o))\n"),
                 ("            r, q = pop(heap)\n", "            r, _, q = pop(heap)\n")]:
    assert old in s
    s = s.replace(old, new)
open(p, "w").write(s)
PY
