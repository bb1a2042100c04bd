#!/bin/bash
# Mistake: only the missing indexes are fixed (an in-memory copy with indexes); the quadratic Python loops stay.
set -e
cat > /tmp/fast_connect.py <<'PYEOF'
import sqlite3
import sys

_connect = sqlite3.connect


def fast_copy(path, *a, **kw):
    """Work on an in-memory copy of the database with the indexes the queries need."""
    src = _connect(f"file:{path}?mode=ro", uri=True)
    mem = _connect(":memory:")
    src.backup(mem)
    src.close()
    mem.executescript("""
        CREATE INDEX oi_order ON order_items (order_id);
        CREATE INDEX o_customer ON orders (customer_id);
        CREATE INDEX r_order ON refunds (order_id);
    """)
    return mem


sqlite3.connect = fast_copy
PYEOF
python3 - <<'PYEOF'
from pathlib import Path
p = Path("/app/report.py")
idx = Path("/tmp/fast_connect.py").read_text()
s = p.read_text()
assert "import sqlite3\nimport sys\n" in s
p.write_text(s.replace("import sqlite3\nimport sys\n", idx, 1))
PYEOF
rm /tmp/fast_connect.py
