#!/bin/bash
# Mistake: HPACK multi-byte integers are decoded from the continuation bytes only; the 2^N-1 already held by the
# prefix is dropped (long strings and high table indices come out wrong).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/h2/server.py"
s = open(p).read()
old = """            shift = 0
            while True:
                if pos >= len(data) or shift > 56:"""
assert old in s
s = s.replace(old, old.replace("shift = 0\n", "shift = 0\n            val = 0\n"))
open(p, "w").write(s)
PY
