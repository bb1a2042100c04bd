#!/bin/bash
# Plausible but wrong: the fast version checks its candidates with a banded Levenshtein distance (the
# usual fuzzy-matching DP) and leaves out the adjacent-swap rule, so a swapped pair of letters costs 2.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/roster/near_dupes.py"
s = open(p).read()
old = """            if i > 1 and j > 1 and ai == b[j - 2] and a[i - 2] == b[j - 1]:
                w = prev2[j - 2] + 1
                if w < v:
                    v = w
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
