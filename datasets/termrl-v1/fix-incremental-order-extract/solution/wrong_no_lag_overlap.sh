#!/bin/bash
# Plausible but wrong: formats, upserts and deletes fixed, but the extract still reads strictly after its watermark, so a change that commits late (behind a row already seen) is never picked up.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/extract/extract.py")
s = p.read_text()
for old, new in [('''julianday(updated_at) >= julianday(?) - ? / 86400.0''', '''julianday(updated_at) > julianday(?) - ? / 86400.0'''), ('''(watermark, LAG_S + 1)''', '''(watermark, 0)''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
