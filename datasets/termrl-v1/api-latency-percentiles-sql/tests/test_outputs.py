"""/app/latency.sql run with `sqlite3 -safe -bail -header -csv` on access logs generated here (numeric and
mixed path segments, upper case, trailing slashes, query strings containing '/', time-outs, 5xx) and compared
with routes and nearest-rank percentiles computed in Python."""
import csv
import hashlib
import io
import math
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from reqgen import make  # noqa: E402

SQL = Path(os.environ.get("LATENCY_SQL", "/app/latency.sql"))
SCHEMA = (HERE / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
HEADER = ["route", "hour", "requests", "errors", "p50_ms", "p95_ms", "p99_ms", "max_ms"]


def route(path):
    p = path.split("?", 1)[0].lower()
    segs = [s for s in p.split("/") if s]
    return "/" + "/".join(":id" if s.isdigit() else s for s in segs)


def expected(db):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT path, started_at, duration_ms, status FROM requests").fetchall()
    con.close()
    groups = {}
    for path, started, d, st in rows:
        groups.setdefault((route(path), started[:13] + ":00"), []).append((d, st))
    out = [HEADER]
    for (r, h), v in sorted(groups.items()):
        ds = sorted(d for d, _ in v if d is not None)
        errors = sum(1 for d, st in v if d is None or (st is not None and st >= 500))
        pct = [str(ds[math.ceil(p * len(ds) / 100) - 1]) if ds else "" for p in (50, 95, 99)]
        out.append([r, h, str(len(v)), str(errors), *pct, str(ds[-1]) if ds else ""])
    return out


def report(db):
    before = hashlib.sha256(Path(db).read_bytes()).hexdigest()
    p = subprocess.run(["sqlite3", "-safe", "-bail", "-header", "-csv", str(db)], stdin=SQL.open("rb"), capture_output=True, timeout=120)
    assert p.returncode == 0, f"latency.sql failed: {p.stderr.decode(errors='replace')[-600:]}"
    assert hashlib.sha256(Path(db).read_bytes()).hexdigest() == before, "the script modified the database"
    return list(csv.reader(io.StringIO(p.stdout.decode())))


def compare(got, want):
    assert got and got[0] == HEADER, f"header: {got[:1]}"
    assert len(got) == len(want), f"{len(got) - 1} rows, expected {len(want) - 1} (seed {SEED})"
    for k, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"row {k}: {g} != {w} (seed {SEED})"


@pytest.mark.parametrize("n", [800, 2500])
def test_random_logs(tmp_path, n):
    db = tmp_path / "r.db"
    make(db, SCHEMA, RNG.getrandbits(32), n=n)
    compare(report(db), expected(db))


def crafted(tmp_path, rows):
    db = tmp_path / "c.db"
    con = sqlite3.connect(db)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO requests (path, started_at, duration_ms, status) VALUES (?,?,?,?)", rows)
    con.commit()
    con.close()
    return db


def test_routes(tmp_path):
    rows = [("/Users/42/orders/?page=2", "2024-07-01 10:59:59.999", 5, 200), ("/users/7/orders", "2024-07-01 10:00:00.000", 7, 200),
            ("/files/12a/raw", "2024-07-01 10:00:00.000", 1, 200), ("/", "2024-07-01 10:00:00.000", 2, 200),
            ("/health/", "2024-07-01 11:00:00.000", 3, 503), ("/HEALTH?x=/1/2", "2024-07-01 11:30:00.000", None, None),
            ("/orders/0/items/3", "2024-07-01 11:00:00.000", 4, 200), ("/v2/users/9", "2024-07-01 11:00:00.000", 4, 200)]
    got = report(crafted(tmp_path, rows))
    assert got[1:] == [["/", "2024-07-01 10:00", "1", "0", "2", "2", "2", "2"],
                       ["/files/12a/raw", "2024-07-01 10:00", "1", "0", "1", "1", "1", "1"],
                       ["/health", "2024-07-01 11:00", "2", "2", "3", "3", "3", "3"],
                       ["/orders/:id/items/:id", "2024-07-01 11:00", "1", "0", "4", "4", "4", "4"],
                       ["/users/:id/orders", "2024-07-01 10:00", "2", "0", "5", "7", "7", "7"],
                       ["/v2/users/:id", "2024-07-01 11:00", "1", "0", "4", "4", "4", "4"]], got


def test_nearest_rank_and_timeouts(tmp_path):
    rows = [("/a", "2024-07-01 09:00:00.000", d, 200) for d in range(1, 21)]          # 20 values: p50 = 10th, p95 = 19th
    rows += [("/b", "2024-07-01 09:10:00.000", None, None), ("/b", "2024-07-01 09:20:00.000", None, None)]
    rows += [("/c", "2024-07-01 09:00:00.000", d, 200) for d in (30, 10, 20)]            # 3 values: p50 = 2nd, p95 = 3rd
    got = report(crafted(tmp_path, rows))
    assert got[1:] == [["/a", "2024-07-01 09:00", "20", "0", "10", "19", "20", "20"],
                       ["/b", "2024-07-01 09:00", "2", "2", "", "", "", ""],
                       ["/c", "2024-07-01 09:00", "3", "0", "20", "30", "30", "30"]], got


def test_rank_edges(tmp_path):
    rows = [("/x", "2024-07-02 00:00:00.000", d, 200) for d in range(100, 0, -1)]        # 100 values: p99 = 99th
    rows += [("/y", "2024-07-02 23:59:59.999", 42, 500)]                                   # one value
    got = report(crafted(tmp_path, rows))
    assert got[1:] == [["/x", "2024-07-02 00:00", "100", "0", "50", "95", "99", "100"],
                       ["/y", "2024-07-02 23:00", "1", "1", "42", "42", "42", "42"]], got
