#!/bin/bash
# Plausible but wrong: RC/RD are read as credit/debit (the R taken for a reversal flag that does not change the direction).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/mt940.py")
s = p.read_text()
for old, new in [('''signed = c if mark in ("C", "RD") else -c''', '''signed = c if mark in ("C", "RC") else -c''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
