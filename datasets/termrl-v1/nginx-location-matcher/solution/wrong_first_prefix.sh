#!/bin/bash
# Mistake: the first matching prefix location in file order is taken instead of the longest one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/locmatch"
s = open(p).read()
old = 'uri.startswith(pat) and (best is None or len(pat) > len(best[1])):'
assert old in s
open(p, "w").write(s.replace(old, 'uri.startswith(pat) and best is None:'))
PY
