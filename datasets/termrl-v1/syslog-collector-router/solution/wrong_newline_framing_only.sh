#!/bin/bash
# Mistake: TCP frames are always read up to the newline, so octet-counted frames (and messages containing
# newlines) are mangled.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/collector/collector.py"
s = open(p).read()
old = "            if c.isdigit():\n"
assert old in s
open(p, "w").write(s.replace(old, "            if False:\n"))
PY
