import csv
import io
import random
import sqlite3
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import scd_gen  # noqa: E402
import scd_ref  # noqa: E402

COLS = ["sk", "customer_id", "name", "city", "tier", "email", "valid_from", "valid_to", "is_current"]


def load(db, path, date):
    r = subprocess.run(["python3", "/app/scd2.py", "load", str(db), str(path), "--date", date], capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()[-2000:]


def dim(db):
    con = sqlite3.connect(str(db))
    cols = [r[1] for r in con.execute("PRAGMA table_info(dim_customer)")]
    assert cols == COLS
    rows = con.execute("SELECT * FROM dim_customer ORDER BY sk").fetchall()
    con.close()
    return rows


def scenario(tmp_path, seed, order_fn, days=7):
    series = scd_gen.gen_series(seed, days=days)
    files = {}
    for d, rows in series:
        p = tmp_path / f"snap_{d}.csv"
        scd_gen.write(p, rows)
        files[d] = p
    return series, files


def expected(files_loaded):
    return scd_ref.build({d: scd_ref.read_snapshot(p) for d, p in files_loaded.items()})


def test_in_order_loads(tmp_path):
    series, files = scenario(tmp_path, 1, None)
    db = tmp_path / "a.db"
    for d, _ in series:
        load(db, files[d], d)
    assert dim(db) == expected(files)


def test_example_snapshots(tmp_path):
    import glob
    import os
    db = tmp_path / "ex.db"
    files = {}
    for p in sorted(glob.glob("/app/snapshots/customers_*.csv")):
        d = os.path.basename(p)[len("customers_"):-4]
        files[d] = p
        load(db, p, d)
    assert dim(db) == expected(files)


@pytest.mark.parametrize("seed", [2, 3])
def test_late_arriving_snapshots(tmp_path, seed):
    series, files = scenario(tmp_path, seed, None)
    order = [d for d, _ in series]
    random.Random(seed).shuffle(order)
    db = tmp_path / "b.db"
    loaded = {}
    for d in order:
        load(db, files[d], d)
        loaded[d] = files[d]
        assert dim(db) == expected(loaded), f"after loading {d}"


def test_reload_replaces_and_is_idempotent(tmp_path):
    series, files = scenario(tmp_path, 4, None)
    db = tmp_path / "c.db"
    for d, _ in series:
        load(db, files[d], d)
    before = dim(db)
    mid = series[3][0]
    load(db, files[mid], mid)
    assert dim(db) == before
    other = series[1][0]
    load(db, files[other], mid)  # replace the snapshot of date `mid` with different content
    loaded = dict(files)
    loaded[mid] = files[other]
    assert dim(db) == expected(loaded)


def test_asof(tmp_path):
    series, files = scenario(tmp_path, 6, None)
    db = tmp_path / "d.db"
    for d, _ in reversed(series):
        load(db, files[d], d)
    rows = expected(files)
    for q in ["2024-02-01", series[0][0], series[2][0], "2024-03-09", series[-1][0], "2030-01-01"]:
        r = subprocess.run(["python3", "/app/scd2.py", "asof", str(db), q], capture_output=True, timeout=30)
        assert r.returncode == 0
        got = list(csv.reader(io.StringIO(r.stdout.decode())))
        assert got[0] == ["customer_id", "name", "city", "tier", "email"]
        assert [tuple(x) for x in got[1:]] == scd_ref.asof(rows, q), q
