#!/bin/bash
# Fix: compare timestamps as instants (not strings), re-read a 5 s overlap behind the watermark, upsert
# instead of insert-or-ignore, and apply soft deletes.
set -euo pipefail
python3 - <<'PY'
from pathlib import Path
p = Path("/app/extract/extract.py")
s = p.read_text()
start = s.index("def changed_rows(src, watermark):")
end = s.index('if __name__ == "__main__":')
s = s[:start] + '''LAG_S = 5   # a change can commit up to 5 s (of updated_at) behind one already seen


def changed_rows(src, watermark):
    """Every row whose updated_at is at or after watermark - LAG_S, deleted ones included.
    julianday() compares the three writers' formats as instants; a little extra margin covers its rounding."""
    sql = "SELECT id, customer, status, total_cents, updated_at, deleted_at FROM orders"
    if watermark is None:
        return src.execute(sql).fetchall()
    return src.execute(sql + " WHERE julianday(updated_at) >= julianday(?) - ? / 86400.0",
                       (watermark, LAG_S + 1)).fetchall()


def main(source_db, warehouse_db, state_path):
    state = load_state(state_path)
    src = sqlite3.connect(f"file:{source_db}?mode=ro", uri=True)
    dw = sqlite3.connect(warehouse_db)
    dw.executescript(DW_SCHEMA)

    rows = changed_rows(src, state["watermark"])
    new_mark = state["watermark"]
    with dw:
        for oid, customer, status, total, updated, deleted in rows:
            utc = to_utc(updated)
            if deleted is not None:
                dw.execute("DELETE FROM dw_orders WHERE id = ?", (oid,))
            else:
                dw.execute("INSERT INTO dw_orders VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                           "customer = excluded.customer, status = excluded.status, "
                           "total_cents = excluded.total_cents, updated_at = excluded.updated_at",
                           (oid, customer, status, total, utc))
            if new_mark is None or utc > new_mark:   # normalised UTC strings compare as instants
                new_mark = utc
    save_state(state_path, {"watermark": new_mark})   # only after the warehouse commit
    print(f"extracted {len(rows)} rows, watermark {new_mark}")


''' + s[end:]
p.write_text(s)
PY
