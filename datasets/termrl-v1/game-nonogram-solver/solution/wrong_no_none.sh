#!/bin/bash
# Mistake: never reports NONE; when the search fails it prints the all-empty grid.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/nonogram.py").read()
old = """        print("NONE")
        return"""
new = """        res = [[EMPTY] * C for _ in range(R)]"""
assert old in s
open("/app/nonogram.py", "w").write(s.replace(old, new))
PY
