#!/bin/bash
# Plausible but wrong: only the shipping method 'express' counts as express; 'next_day' is taken as standard.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/normalize.py")
s = p.read_text()
for old, new in [('''in ("express", "next_day")''', '''== "express"''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
