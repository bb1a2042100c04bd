#!/bin/bash
# Plausible but wrong: timestamps, overlap and upserts fixed, but soft-deleted orders are still filtered out of the read, so their warehouse rows stay.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/extract/extract.py")
s = p.read_text()
for old, new in [('''    sql = "SELECT id, customer, status, total_cents, updated_at, deleted_at FROM orders"
    if watermark is None:
        return src.execute(sql).fetchall()
    return src.execute(sql + " WHERE''', '''    sql = "SELECT id, customer, status, total_cents, updated_at, deleted_at FROM orders WHERE deleted_at IS NULL"
    if watermark is None:
        return src.execute(sql).fetchall()
    return src.execute(sql + " AND''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
