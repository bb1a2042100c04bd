#!/bin/bash
# Mistake: the slot is computed from the whole key; {hash tags} are ignored.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/rproxy/proxy.py"
s = open(p).read()
old = """    s = key.find(b"{")
    if s >= 0:
        e = key.find(b"}", s + 1)
        if e > s + 1:
            key = key[s + 1:e]
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
