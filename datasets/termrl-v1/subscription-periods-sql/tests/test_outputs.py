"""/app/coverage.sql run with `sqlite3 -safe -bail -header -csv` on subscription databases generated here
(overlaps, touching ranges, open ends, empty and backwards ranges, future starts, same-day starts) and
compared with the periods computed in Python."""
import csv
import hashlib
import io
import os
import random
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from subgen import make  # noqa: E402

SQL = Path(os.environ.get("COVERAGE_SQL", "/app/coverage.sql"))
SCHEMA = (HERE / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
HEADER = ["customer_id", "period_no", "period_start", "period_end", "subscriptions", "days", "gap_days"]


def d(s):
    return date.fromisoformat(s)


def expected(db):
    con = sqlite3.connect(db)
    as_of = con.execute("SELECT as_of FROM report_settings").fetchone()[0]
    subs = con.execute("SELECT customer_id, start_date, end_date FROM subscriptions").fetchall()
    con.close()
    by = {}
    for c, s, e in subs:
        if (e is None or e > s) and s <= as_of:
            by.setdefault(c, []).append((s, e))
    rows = []
    for c in sorted(by):
        periods = []
        for s, e in sorted(by[c], key=lambda t: (t[0], t[1] or "9999")):
            if periods and (periods[-1][1] is None or s <= periods[-1][1]):
                last = periods[-1]
                last[1] = None if (last[1] is None or e is None) else max(last[1], e)
                last[2] += 1
            else:
                periods.append([s, e, 1])
        prev = None
        for k, (s, e, n) in enumerate(periods, 1):
            stop = as_of if e is None or e > as_of else e
            gap = "" if prev is None else str((d(s) - d(prev)).days)
            rows.append([str(c), str(k), s, e or "", str(n), str((d(stop) - d(s)).days), gap])
            prev = e
    return [HEADER] + rows


def report(db):
    before = hashlib.sha256(Path(db).read_bytes()).hexdigest()
    p = subprocess.run(["sqlite3", "-safe", "-bail", "-header", "-csv", str(db)], stdin=SQL.open("rb"), capture_output=True, timeout=120)
    assert p.returncode == 0, f"coverage.sql failed: {p.stderr.decode(errors='replace')[-600:]}"
    assert hashlib.sha256(Path(db).read_bytes()).hexdigest() == before, "the script modified the database"
    return list(csv.reader(io.StringIO(p.stdout.decode())))


def compare(got, want):
    assert got and got[0] == HEADER, f"header: {got[:1]}"
    assert len(got) == len(want), f"{len(got) - 1} rows, expected {len(want) - 1} (seed {SEED})"
    for k, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"row {k}: {g} != {w} (seed {SEED})"


@pytest.mark.parametrize("as_of", ["2024-09-15", "2023-11-20", "2025-06-01"])
def test_random_databases(tmp_path, as_of):
    db = tmp_path / "s.db"
    make(db, SCHEMA, RNG.getrandbits(32), customers=RNG.randint(30, 50), as_of=as_of)
    compare(report(db), expected(db))


def case(tmp_path, subs, as_of="2024-06-01"):
    db = tmp_path / "c.db"
    con = sqlite3.connect(db)
    con.executescript(SCHEMA)
    con.execute("INSERT INTO report_settings VALUES (?)", (as_of,))
    con.executemany("INSERT INTO subscriptions (customer_id, plan, start_date, end_date) VALUES (?, 'basic', ?, ?)", subs)
    con.commit()
    con.close()
    return report(db)[1:]


def test_open_ended_subscription_swallows_later_ones(tmp_path):
    got = case(tmp_path, [(1, "2024-01-01", None), (1, "2024-02-01", "2024-03-01"), (1, "2024-04-10", "2024-04-20"),
                          (2, "2024-01-01", "2024-01-10"), (2, "2024-01-10", "2024-01-20"), (2, "2024-01-21", "2024-01-22")])
    assert got == [["1", "1", "2024-01-01", "", "3", "152", ""],
                   ["2", "1", "2024-01-01", "2024-01-20", "2", "19", ""],
                   ["2", "2", "2024-01-21", "2024-01-22", "1", "1", "1"]], got


def test_ignored_rows_and_cap(tmp_path):
    got = case(tmp_path, [(5, "2024-03-01", "2024-03-01"), (5, "2024-03-05", "2024-03-02"), (5, "2024-07-01", None),
                          (5, "2024-05-20", "2024-08-01"), (6, "2024-06-01", "2024-06-05"), (7, "2024-06-02", None)])
    assert got == [["5", "1", "2024-05-20", "2024-08-01", "1", "12", ""],
                   ["6", "1", "2024-06-01", "2024-06-05", "1", "0", ""]], got


def test_single_subscription(tmp_path):
    text = SQL.read_text()
    assert text.strip(), "coverage.sql is empty"
    got = case(tmp_path, [(9, "2024-01-01", "2024-02-01")])
    assert got == [["9", "1", "2024-01-01", "2024-02-01", "1", "31", ""]]
