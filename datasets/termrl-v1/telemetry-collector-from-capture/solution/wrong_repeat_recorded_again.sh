#!/bin/bash
# Mistake: a frame sent again after it was acknowledged is treated as new: acknowledged as such and recorded twice.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/collector/collector.py"
s = open(p).read()
old = "                if seq == last_seq:\n"
assert old in s
open(p, "w").write(s.replace(old, "                if False:\n"))
PY
