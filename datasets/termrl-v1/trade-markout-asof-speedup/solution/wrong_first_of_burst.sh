#!/bin/bash
# Plausible but wrong: quotes sharing a millisecond are collapsed to one per symbol and time before the
# search, keeping the first one seen (setdefault), so a burst of same-millisecond updates resolves to
# its first quote instead of the last one in the file.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tca/markouts.py"
s = open(p).read()
old = """    for sym, qs in by.items():
        qs.sort(key=lambda q: q[0])
"""
new = """    for sym, qs in by.items():
        first = {}
        for q in qs:
            first.setdefault(q[0], q)
        qs = sorted(first.values(), key=lambda q: q[0])
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
