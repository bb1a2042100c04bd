#!/bin/bash
# Mistake: only propagates line deductions and never guesses; cells left undecided are printed as empty, so
# puzzles that logic alone does not settle come out wrong.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/nonogram.py").read()
old = """            if grid[r][c] == UNK:
                for v in (FULL, EMPTY):"""
new = """            if grid[r][c] == UNK:
                grid[r][c] = EMPTY
                continue
                for v in (FULL, EMPTY):"""
assert old in s
open("/app/nonogram.py", "w").write(s.replace(old, new))
PY
