#!/bin/bash
# Mistake: temperatures are decoded as unsigned 16-bit values, so readings below zero come out wrong.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/collector/collector.py"
s = open(p).read()
old = '1: ("temp_c", "<h",'
assert old in s
open(p, "w").write(s.replace(old, '1: ("temp_c", "<H",'))
PY
