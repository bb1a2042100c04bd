#!/bin/bash
# Plausible but wrong: fixes are taken in file order (the log is assumed to be sorted), not sorted by time per device.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/trips.py")
s = p.read_text()
for old, new in [('''        pts.sort()
''', '''''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
