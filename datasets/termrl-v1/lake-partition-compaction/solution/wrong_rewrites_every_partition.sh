#!/bin/bash
# Plausible but wrong: every partition is rewritten on every run, also those that are already compacted, so their files change (mtime) although nothing arrived.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/compact.py")
s = p.read_text()
for old, new in [('''    if not parts:
        return
''', '''''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
