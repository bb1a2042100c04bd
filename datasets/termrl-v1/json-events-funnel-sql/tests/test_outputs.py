"""/app/funnel.sql run with `sqlite3 -safe -bail -header -csv` on event logs generated here (malformed, empty
and NULL payloads, types in any case, SKUs with spaces and mixed case, missing quantities, prices as numbers and
strings) and compared with the funnel computed in Python."""
import csv
import hashlib
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from evgen import make  # noqa: E402

SQL = Path(os.environ.get("FUNNEL_SQL", "/app/funnel.sql"))
SCHEMA = (HERE / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
HEADER = ["sku", "viewed_users", "carted_users", "buyers", "units_sold", "revenue_cents", "conversion_pct"]


def expected(db):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT user_id, payload FROM events").fetchall()
    con.close()
    st = {}
    for user, payload in rows:
        try:
            p = json.loads(payload)
        except (TypeError, ValueError):
            continue
        if not isinstance(p, dict) or not isinstance(p.get("type"), str):
            continue
        t = p["type"].lower()
        if t not in ("view", "cart", "purchase"):
            continue
        items = (p.get("order") or {}).get("items", []) if t == "purchase" else p.get("items", [])
        for it in items:
            sku = it["sku"].strip().upper()
            s = st.setdefault(sku, {"view": set(), "cart": set(), "purchase": set(), "units": 0, "rev": 0})
            s[t].add(user)
            if t == "purchase":
                q = it.get("qty", 1)
                s["units"] += q
                s["rev"] += q * int((Decimal(str(it["price"])) * 100).to_integral_value(ROUND_HALF_UP))
    out = [HEADER]
    for sku in sorted(st):
        s = st[sku]
        v, b = len(s["view"]), len(s["purchase"])
        conv = "" if v == 0 else str((Decimal(100 * b) / Decimal(v)).quantize(Decimal("0.1"), ROUND_HALF_UP))
        out.append([sku, str(v), str(len(s["cart"])), str(b), str(s["units"]), str(s["rev"]), conv])
    return out


def report(db):
    before = hashlib.sha256(Path(db).read_bytes()).hexdigest()
    p = subprocess.run(["sqlite3", "-safe", "-bail", "-header", "-csv", str(db)], stdin=SQL.open("rb"), capture_output=True, timeout=120)
    assert p.returncode == 0, f"funnel.sql failed: {p.stderr.decode(errors='replace')[-600:]}"
    assert hashlib.sha256(Path(db).read_bytes()).hexdigest() == before, "the script modified the database"
    return list(csv.reader(io.StringIO(p.stdout.decode())))


def compare(got, want):
    assert got and got[0] == HEADER, f"header: {got[:1]}"
    assert len(got) == len(want), f"{len(got) - 1} rows, expected {len(want) - 1} (seed {SEED})"
    for k, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"row {k}: {g} != {w} (seed {SEED})"


@pytest.mark.parametrize("n", [300, 900])
def test_random_event_logs(tmp_path, n):
    db = tmp_path / "e.db"
    make(db, SCHEMA, RNG.getrandbits(32), n=n)
    compare(report(db), expected(db))


def crafted(tmp_path, payloads):
    db = tmp_path / "c.db"
    con = sqlite3.connect(db)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO events (user_id, ts, payload) VALUES (?, '2024-05-01T00:00:00Z', ?)", payloads)
    con.commit()
    con.close()
    return db


def test_malformed_payloads_are_skipped(tmp_path):
    db = crafted(tmp_path, [(1, '{"type": "view", "items": [{"sku": "a1"}]}'), (2, '{"type": "view", "items": ['), (3, None),
                            (4, ""), (5, "[1, 2]"), (6, '{"type": "Purchase", "order": {"items": [{"sku": " A1 ", "qty": 3, "price": "0.29"}]}}')])
    got = report(db)
    compare(got, expected(db))
    assert got[1:] == [["A1", "1", "0", "1", "3", "87", "100.0"]]


def test_ratios_and_prices(tmp_path):
    rows = [(u, '{"type": "VIEW", "items": [{"sku": "z"}]}') for u in range(1, 17)]
    rows.append((1, '{"type": "purchase", "order": {"items": [{"sku": "Z", "price": 19.99}, {"sku": "y", "qty": 2, "price": "10.05"}]}}'))
    rows.append((2, '{"type": "cart", "items": [{"sku": "y"}, {"sku": "Y", "qty": 5}]}'))
    db = crafted(tmp_path, rows)
    got = report(db)
    compare(got, expected(db))
    assert got[1:] == [["Y", "0", "1", "1", "2", "2010", ""], ["Z", "16", "0", "1", "1", "1999", "6.3"]], got


def test_other_event_types_ignored(tmp_path):
    db = crafted(tmp_path, [(1, '{"type": "search", "items": [{"sku": "q"}]}'), (1, '{"type": "view", "items": [{"sku": "q", "qty": 2}]}'),
                            (2, '{"type": "view", "items": [{"sku": "q"}]}'), (2, '{"items": [{"sku": "q"}]}')])
    got = report(db)
    assert got[1:] == [["Q", "2", "0", "0", "0", "0", "0.0"]], got
