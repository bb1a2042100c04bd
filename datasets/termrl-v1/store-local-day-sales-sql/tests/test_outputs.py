"""/app/daily_sales.sql run with `sqlite3 -safe -bail -header -csv` on sales databases generated here (sales
clustered around spring-forward and fall-back transitions, half-hour and negative offsets, a zone whose clocks
change at local midnight, refunds) and compared with the local days computed in Python from the same rules."""
import csv
import hashlib
import io
import os
import random
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from salesgen import make  # noqa: E402

SQL = Path(os.environ.get("DAILY_SQL", "/app/daily_sales.sql"))
SCHEMA = (HERE / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
HEADER = ["store_id", "local_date", "sales", "amount_cents", "first_sale", "last_sale", "offsets"]


def fmt_off(o):
    return f"{'-' if o < 0 else '+'}{abs(o) // 60:02d}:{abs(o) % 60:02d}"


def expected(db):
    con = sqlite3.connect(db)
    rules = {}
    for z, f, o in con.execute("SELECT zone, from_utc, offset_min FROM tz_rules"):
        rules.setdefault(z, []).append((datetime.strptime(f, "%Y-%m-%d %H:%M:%S"), o))
    zone = dict(con.execute("SELECT id, zone FROM stores"))
    days = {}
    for sid, sold, amt in con.execute("SELECT store_id, sold_at, amount_cents FROM sales WHERE refunded = 0"):
        t = datetime.strptime(sold, "%Y-%m-%dT%H:%M:%SZ")
        off = max((f, o) for f, o in rules[zone[sid]] if f <= t)[1]
        local = t + timedelta(minutes=off)
        days.setdefault((sid, local.strftime("%Y-%m-%d")), []).append((t, local, off, amt))
    con.close()
    rows = [HEADER]
    for (sid, day), v in sorted(days.items()):
        v.sort(key=lambda x: x[0])
        offs = ";".join(fmt_off(o) for o in sorted({x[2] for x in v}))
        rows.append([str(sid), day, str(len(v)), str(sum(x[3] for x in v)), v[0][1].strftime("%H:%M:%S"), v[-1][1].strftime("%H:%M:%S"), offs])
    return rows


def report(db):
    before = hashlib.sha256(Path(db).read_bytes()).hexdigest()
    p = subprocess.run(["sqlite3", "-safe", "-bail", "-header", "-csv", str(db)], stdin=SQL.open("rb"), capture_output=True, timeout=120)
    assert p.returncode == 0, f"daily_sales.sql failed: {p.stderr.decode(errors='replace')[-600:]}"
    assert hashlib.sha256(Path(db).read_bytes()).hexdigest() == before, "the script modified the database"
    return list(csv.reader(io.StringIO(p.stdout.decode())))


def compare(got, want):
    assert got and got[0] == HEADER, f"header: {got[:1]}"
    assert len(got) == len(want), f"{len(got) - 1} rows, expected {len(want) - 1} (seed {SEED})"
    for k, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"row {k}: {g} != {w} (seed {SEED})"


@pytest.mark.parametrize("n", [700, 1200])
def test_random_databases(tmp_path, n):
    db = tmp_path / "s.db"
    make(db, SCHEMA, RNG.getrandbits(32), n_sales=n)
    compare(report(db), expected(db))


def crafted(tmp_path, zone_rules, sales):
    db = tmp_path / "c.db"
    con = sqlite3.connect(db)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO tz_rules VALUES ('Z', ?, ?)", zone_rules)
    con.execute("INSERT INTO stores VALUES (1, 'Only', 'Z')")
    con.executemany("INSERT INTO sales (store_id, sold_at, amount_cents, refunded) VALUES (1, ?, ?, ?)", sales)
    con.commit()
    con.close()
    return db


def test_fall_back_at_midnight(tmp_path):
    # clocks go from 00:00 back to 23:00: 23:30 (first pass) is earlier than 23:10 (second pass)
    db = crafted(tmp_path, [("1970-01-01 00:00:00", -240), ("2024-03-17 04:00:00", -180), ("2024-11-10 03:00:00", -240)],
                 [("2024-11-10T02:30:00Z", 100, 0), ("2024-11-10T03:10:00Z", 200, 0), ("2024-11-10T02:59:59Z", 5, 1),
                  ("2024-11-10T04:00:00Z", 7, 0), ("2024-03-17T04:00:00Z", 1, 0), ("2024-03-17T03:59:59Z", 2, 0)])
    got = report(db)
    compare(got, expected(db))
    assert got[1:] == [["1", "2024-03-16", "1", "2", "23:59:59", "23:59:59", "-04:00"],
                       ["1", "2024-03-17", "1", "1", "01:00:00", "01:00:00", "-03:00"],
                       ["1", "2024-11-09", "2", "300", "23:30:00", "23:10:00", "-04:00;-03:00"],
                       ["1", "2024-11-10", "1", "7", "00:00:00", "00:00:00", "-04:00"]], got


def test_transition_instant_and_signs(tmp_path):
    db = crafted(tmp_path, [("1970-01-01 00:00:00", -30), ("2024-06-01 10:00:00", 330)],
                 [("2024-06-01T10:00:00Z", 10, 0), ("2024-06-01T09:59:59Z", 20, 0), ("2024-06-01T00:10:00Z", 40, 0)])
    got = report(db)
    compare(got, expected(db))
    assert got[1:] == [["1", "2024-05-31", "1", "40", "23:40:00", "23:40:00", "-00:30"],
                       ["1", "2024-06-01", "2", "30", "09:29:59", "15:30:00", "-00:30;+05:30"]], got


def test_single_zone_utc(tmp_path):
    db = crafted(tmp_path, [("1970-01-01 00:00:00", 0)], [("2024-02-29T23:59:59Z", 3, 0), ("2024-03-01T00:00:00Z", 4, 0)])
    got = report(db)
    assert got[1:] == [["1", "2024-02-29", "1", "3", "23:59:59", "23:59:59", "+00:00"],
                       ["1", "2024-03-01", "1", "4", "00:00:00", "00:00:00", "+00:00"]], got
