#!/bin/bash
# Plausible but wrong: the usual record-linkage "blocking" -- only names whose keys start with the same
# character are compared -- so a typo or swap in the first letter hides a near duplicate.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/roster/near_dupes.py"
s = open(p).read()
old = "    for a, b in cand:\n"
assert old in s
open(p, "w").write(s.replace(old, old + "        if ukeys[a][:1] != ukeys[b][:1]:\n            continue\n"))
PY
