#!/bin/bash
# Plausible but wrong: a taken name always leads to the next suffix, so photos already imported (or copied twice) are imported again.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/import_photos.py")
s = p.read_text()
for old, new in [('''            if cand.read_bytes() == data:''', '''            if False:''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
