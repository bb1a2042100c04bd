#!/bin/bash
# Mistake: scans the raw PHP text, so commented-out code and code inside string literals count as findings.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/sweep.py").read()
old = "    kept, code, ticks = lex(text)\n"
assert old in src
open("/app/sweep.py", "w").write(src.replace(old, "    kept, code, ticks = text, text, []\n"))
PY
