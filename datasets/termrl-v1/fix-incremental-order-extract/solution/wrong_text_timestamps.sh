#!/bin/bash
# Plausible but wrong: overlap, upserts and deletes fixed, but updated_at is still compared as text against a UTC watermark, which only works for one of the three writers' formats.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/extract/extract.py")
s = p.read_text()
for old, new in [('''julianday(updated_at) >= julianday(?) - ? / 86400.0",
                       (watermark, LAG_S + 1))''', '''updated_at >= ?",
                       (to_utc_minus(watermark, LAG_S + 1),))'''), ('''LAG_S = 5 ''', '''def to_utc_minus(mark, secs):
    from datetime import timedelta
    t = datetime.fromisoformat(mark.replace("Z", "+00:00")) - timedelta(seconds=secs)
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


LAG_S = 5 ''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
