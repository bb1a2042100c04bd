#!/bin/bash
# Plausible but wrong: only the part files are merged; the partition's existing data.jsonl is overwritten instead of merged, so earlier compacted events vanish when new parts arrive.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/compact.py")
s = p.read_text()
for old, new in [('''    sources = ([data] if data.exists() else []) + parts''', '''    sources = parts''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
