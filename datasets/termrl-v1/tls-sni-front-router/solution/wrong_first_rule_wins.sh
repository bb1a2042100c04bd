#!/bin/bash
# Mistake: the first matching rule of the file wins, instead of the most specific one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/frontdoor/router.py"
s = open(p).read()
old = """        key = (rank, r["alpn"] is not None, -i)
        if best_key is None or key > best_key:
            best, best_key = r, key
"""
new = """        return r
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
