#!/bin/bash
# Plausible but wrong: the booking (entry) date takes the year of the value date, so entries across New Year land a year off.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/mt940.py")
s = p.read_text()
for old, new in [('''    for y in (value.year - 1, value.year, value.year + 1):''', '''    for y in (value.year,):''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
