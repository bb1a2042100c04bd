#!/bin/bash
# Plausible but wrong: the newest app's millisecond timestamps are rounded to the nearest second instead of cut off.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/normalize.py")
s = p.read_text()
for old, new in [('''datetime.fromtimestamp(ev["ts_ms"] // 1000, tz=timezone.utc)''', '''datetime.fromtimestamp(round(ev["ts_ms"] / 1000), tz=timezone.utc)''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
