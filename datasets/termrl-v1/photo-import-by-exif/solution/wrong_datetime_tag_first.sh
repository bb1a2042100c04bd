#!/bin/bash
# Plausible but wrong: the IFD0 DateTime tag (when the file was last changed) is preferred over the Exif DateTimeOriginal.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/import_photos.py")
s = p.read_text()
for old, new in [('''    for s in exif_times(data):''', '''    for s in reversed(exif_times(data)):''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
