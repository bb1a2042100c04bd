"""/app/report.py must print exactly what the original report printed, on shop databases generated here,
and stay within a CPU-time budget on a large one (CPU time of the child, not wall-clock time)."""
import hashlib
import os
import random
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import shopgen  # noqa: E402

TOOL = os.environ.get("REPORT", "/app/report.py")
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
CPU_BUDGET_S = 6.0


def run(script, db, cpu_limit=None):
    def limit():  # a run over the budget is stopped by the kernel once it has used that much CPU time
        if cpu_limit:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, str(script), str(db)], capture_output=True, text=True, timeout=3600,
                       preexec_fn=limit)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r, cpu


def expect_same_as_original(db):
    want, _ = run(HERE / "report_original.py", db)
    assert want.returncode == 0, want.stderr
    before = hashlib.sha256(Path(db).read_bytes()).hexdigest()
    got, _ = run(TOOL, db)
    assert got.returncode == 0, got.stderr[-2000:]
    assert hashlib.sha256(Path(db).read_bytes()).hexdigest() == before, "the database was modified"
    if got.stdout != want.stdout:
        g, w = got.stdout.splitlines(), want.stdout.splitlines()
        diff = [(i, a, b) for i, (a, b) in enumerate(zip(g, w)) if a != b][:5]
        pytest.fail(f"output differs (seed {SEED}): {len(g)} lines vs {len(w)}; first differences (line, got, want): {diff}")


@pytest.mark.parametrize("size", [(120, 600), (250, 1100)])
def test_same_output_as_the_original(tmp_path, size):
    c, o = size
    db = shopgen.build(tmp_path / "shop.db", random.Random(RNG.getrandbits(64)), customers=c, orders=o)
    expect_same_as_original(db)


def small_db(tmp_path, orders, items, customers=(), products=(), refunds=()):
    db = tmp_path / "edge.db"
    con = sqlite3.connect(db)
    con.executescript(shopgen.SCHEMA)
    con.executemany("INSERT INTO customers VALUES (?,?,?,?)", customers or [(i, f"C{i}", "DE", "2021-01-01") for i in range(1, 6)])
    con.executemany("INSERT INTO products VALUES (?,?,?)", products or [(1, "p", "Books")])
    con.executemany("INSERT INTO orders VALUES (?,?,?,?)", orders)
    con.executemany("INSERT INTO order_items VALUES (?,?,?,?,?)", items)
    con.executemany("INSERT INTO refunds VALUES (?,?,?,?)", refunds)
    con.commit()
    con.close()
    return db


def test_utc_month_boundaries(tmp_path):
    stamps = ["2024-01-31T23:30:00-02:00", "2024-02-01T01:00:00+03:00", "2024-02-29 22:00:00-04:00",
              "2024-03-01T00:30:00.250000+01:00", "2023-12-31T20:00:00-05:00", "2024-01-01 00:00:00",
              "2024-04-30T23:59:59Z", "2024-05-01T05:29:00+05:30 "]
    RNG.shuffle(stamps)
    orders = [(i, RNG.randint(1, 5), ts, "paid") for i, ts in enumerate(stamps, start=1)]
    items = [(i, 1, RNG.randint(1, 3), f"{RNG.randint(1, 50)}.{RNG.randint(0, 99):02d}", None) for i in range(1, len(stamps) + 1)]
    refunds = [(1, 2, 100, "2024-03-31T23:00:00-01:00"), (2, 3, 50, "2024-02-01T00:10:00+00:30")]
    expect_same_as_original(small_db(tmp_path, orders, items, refunds=refunds))


def test_half_cent_rounding(tmp_path):
    orders = [(i, 1 + i % 5, f"2024-06-{1 + i % 20:02d}T10:00:00Z", "shipped") for i in range(1, 41)]
    prices = ["0.25", "0.75", "1.25", "2.50", "0.05", "0.15", "12.25", "3.45", "0.35", "0.125", "7.005"]
    items = [(o, 1, RNG.randint(1, 9), RNG.choice(prices), RNG.choice([50, 25, 10, 5, None, 0]))
             for o, *_ in orders for _ in range(RNG.randint(1, 4))]
    expect_same_as_original(small_db(tmp_path, orders, items))


def test_unicode_names_and_categories(tmp_path):
    names = ["Émile", "émile", "Straße", "STRASSE", "ǅemal", "Ǆemal", "Σίσυφος", "ΣΊΣΥΦΟΣ", None, "İlker", "ılker"]
    customers = [(i, n, "DE", "2021-01-01") for i, n in enumerate(names, start=1)]
    cats = ["Straße", "STRASSE", "strasse ", "ΚΑΦΈΣ", "καφές", None, " ", "Books"]
    products = [(i, f"p{i}", c) for i, c in enumerate(cats, start=1)]
    orders, items = [], []
    for oid in range(1, 60):
        cid = (oid % len(names)) + 1
        orders.append((oid, cid, f"2024-0{1 + oid % 3}-10T10:00:00", "paid"))
        # equal spend for every customer: the ranking is decided by the tie-break
        items.append((oid, 1 + oid % len(cats), 1, "10.00", 0))
    expect_same_as_original(small_db(tmp_path, orders, items, customers, products))


def test_orphans_nulls_and_odd_statuses(tmp_path):
    orders = [(1, None, "2024-01-05T10:00:00", "paid"), (2, 99, "2024-01-06T10:00:00", "paid"),
              (3, 1, "2024-01-07T10:00:00", None), (4, 1, "2024-02-07T10:00:00", "cancelled"),
              (5, 2, "2024-03-07T10:00:00", "refunded"), (6, None, "2024-02-08T10:00:00", "shipped"),
              (7, 3, "2024-01-09T10:00:00", "paid")]
    items = [(1, 1, 2, "5.00", None), (2, 1, 1, "7.50", 10), (3, 77, 1, "3.00", 0), (4, 1, 4, "9.99", 0),
             (5, 1, 1, "20.00", 50), (6, 1, 3, "1.10", 0), (404, 1, 1, "1.00", 0)]
    refunds = [(1, 4, 999, "2024-02-10T00:00:00"), (2, 5, 300, "2024-07-01T00:00:00Z"), (3, 404, 5, "2024-01-01T00:00:00"),
               (4, 1, 100, "2024-01-20T00:00:00"), (5, 5, 200, "2024-03-08T00:00:00")]
    expect_same_as_original(small_db(tmp_path, orders, items, refunds=refunds))
    empty = tmp_path / "empty"
    empty.mkdir()
    expect_same_as_original(small_db(empty, [], []))


def test_large_database_within_cpu_budget(tmp_path):
    rng = random.Random(RNG.getrandbits(64))
    db = shopgen.build(tmp_path / "big.db", rng, customers=2500, orders=15000, products=200, refunds=2000)
    want, _ = run(HERE / "report_reference.py", db)
    assert want.returncode == 0, want.stderr
    got, cpu = run(TOOL, db, cpu_limit=int(CPU_BUDGET_S) + 2)
    assert cpu <= CPU_BUDGET_S, f"report.py used {cpu:.1f} CPU seconds on 15,000 orders (budget {CPU_BUDGET_S})"
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.stdout == want.stdout, f"output on the large database differs (seed {SEED})"
