#!/bin/bash
# Mistake: matches the raw request path (only the query removed): no %-decoding, slash merging or dot
# segments.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/locmatch"
s = open(p).read()
old = "        n = normalise(uri)\n"
assert old in s
open(p, "w").write(s.replace(old, "        n = uri.split(\"?\", 1)[0]\n"))
PY
