#!/bin/bash
# Plausible but wrong: duplicates are dropped as they are met (first version wins), so later corrections and tombstones are lost.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/compact.py")
s = p.read_text()
for old, new in [('''if cur is None or obj["_ingested_at"] >= cur["_ingested_at"]:''', '''if cur is None:''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
