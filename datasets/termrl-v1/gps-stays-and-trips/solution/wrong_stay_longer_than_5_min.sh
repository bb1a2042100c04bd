#!/bin/bash
# Plausible but wrong: a stay must last longer than 5 minutes, not at least 5 minutes.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/trips.py")
s = p.read_text()
for old, new in [('''>= 300000''', '''> 300000''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
