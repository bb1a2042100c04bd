#!/bin/bash
# Mistake: only positive answers are cached; NXDOMAIN and NODATA are asked upstream every time.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/resolver/resolver.py"
s = open(p).read()
old = "            put(name, soa[0][3][4] if soa else 0, 3 if rcode == 3 else 0, NEG)\n"
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
