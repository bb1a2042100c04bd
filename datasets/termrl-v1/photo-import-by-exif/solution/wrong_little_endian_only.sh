#!/bin/bash
# Plausible but wrong: EXIF is read as little-endian ('II', as most phones write it); big-endian ('MM') blocks from some cameras give garbage.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/import_photos.py")
s = p.read_text()
for old, new in [('''    e = "<" if t[:2] == b"II" else ">"''', '''    e = "<"''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
