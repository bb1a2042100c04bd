"""/app/indexes.sql applied with the sqlite3 shell to a shop database generated here (new seed); the seven
queries of the task (the tests' own copy) are planned and run with parameter values drawn from that database."""
import hashlib
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from gen import make_db  # noqa: E402

INDEXES = Path(os.environ.get("INDEXES_SQL", "/app/indexes.sql"))
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
MAX_STEPS = 3000
BUDGET = 7


def load_queries():
    out = {}
    for chunk in re.split(r";\s*\n", (HERE / "queries.sql").read_text()):
        m = re.search(r"--\s*(Q\d)\s+(\w+)", chunk)
        if m:
            sql = "\n".join(l for l in chunk.splitlines() if not l.lstrip().startswith("--")).strip()
            out[m.group(1)] = (m.group(2), sql)
    assert len(out) == 7
    return out


QUERIES = load_queries()


def table_digest(con):
    h = hashlib.sha256()
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        h.update(name.encode())
        for row in con.execute(f'SELECT * FROM "{name}" ORDER BY 1, 2'):
            h.update(repr(row).encode())
    return h.hexdigest()


def non_index_schema(con):
    return sorted(con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type != 'index'").fetchall())


@pytest.fixture(scope="module")
def dbs(tmp_path_factory):
    d = tmp_path_factory.mktemp("shop")
    base = d / "base.db"
    skus = make_db(str(base), SEED, customers=2500 + RNG.randint(0, 800), products=1200 + RNG.randint(0, 600),
                   orders=18000 + RNG.randint(0, 4000), events=18000 + RNG.randint(0, 4000))
    tuned = d / "tuned.db"
    shutil.copy(base, tuned)
    assert INDEXES.is_file(), f"{INDEXES} is missing"
    p = subprocess.run(["sqlite3", str(tuned)], stdin=INDEXES.open("rb"), capture_output=True, timeout=120)
    assert p.returncode == 0, f"sqlite3 DB < indexes.sql failed: {p.stderr.decode(errors='replace')[-800:]}"
    b, t = sqlite3.connect(base), sqlite3.connect(tuned)
    ids = [r[0] for r in b.execute("SELECT id FROM customers")]
    busy = b.execute("SELECT customer_id FROM orders WHERE status = 'open' GROUP BY customer_id "
                     "ORDER BY count(*) DESC, customer_id LIMIT 1").fetchone()[0]
    emails = [r[0] for r in b.execute("SELECT email FROM customers")]
    days = [r[0] for r in b.execute("SELECT DISTINCT date(ts) FROM events")]
    params = []
    for i in range(5):
        e = RNG.choice(emails)
        e = RNG.choice([e, e.upper(), e.lower(), e.swapcase()]) if i else "nobody@example.com"
        sku = RNG.choice(skus)
        pre = sku[:RNG.randint(5, 7)]
        pre = RNG.choice([pre, pre.lower(), pre.upper(), pre.swapcase()])
        params.append(dict(cust=busy if i == 0 else RNG.choice(ids), email=e, pattern=pre + "%",
                           day=RNG.choice(days), sku=sku, region=RNG.choice(["north", "south", "east", "west", "central", "islands"])))
    yield b, t, params
    b.close()
    t.close()


def plan(con, sql, params):
    return [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + sql, params)]


def run_counted(con, sql, params):
    steps = [0]

    def tick():
        steps[0] += 1
        return 0

    con.set_progress_handler(tick, 1)
    try:
        rows = con.execute(sql, params).fetchall()
    finally:
        con.set_progress_handler(None, 1)
    return rows, steps[0]


def test_only_indexes_added(dbs):
    b, t, _ = dbs
    assert non_index_schema(t) == non_index_schema(b), "the script changed tables, views or triggers (or ran ANALYZE)"
    assert table_digest(t) == table_digest(b), "the script changed data"
    assert t.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_index_budget(dbs):
    b, t, _ = dbs
    before = {r[0] for r in b.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    added = [r[0] for r in t.execute("SELECT name FROM sqlite_master WHERE type = 'index'") if r[0] not in before]
    assert 1 <= len(added) <= BUDGET, f"{len(added)} indexes added (budget {BUDGET}): {added}"


@pytest.mark.parametrize("q", sorted(QUERIES))
def test_plan_has_no_full_scan_or_temp_btree(dbs, q):
    _, t, params = dbs
    name, sql = QUERIES[q]
    for p in params:
        lines = plan(t, sql, p)
        bad = [l for l in lines if re.fullmatch(r"SCAN \w+", l.strip()) or "USE TEMP B-TREE" in l]
        assert not bad, f"{q} {name} with {p}: plan {lines}"


@pytest.mark.parametrize("q", sorted(QUERIES))
def test_work_and_results(dbs, q):
    b, t, params = dbs
    name, sql = QUERIES[q]
    ordered = "ORDER BY" in sql.upper()
    for p in params:
        want, base_steps = run_counted(b, sql, p)
        got, steps = run_counted(t, sql, p)
        assert steps <= MAX_STEPS, f"{q} {name} with {p}: {steps} VM steps (limit {MAX_STEPS}, {base_steps} without indexes)"
        if ordered:
            assert got == want, f"{q} {name} with {p}: rows differ from the unindexed database"
        else:
            assert sorted(got) == sorted(want), f"{q} {name} with {p}: rows differ from the unindexed database"


def test_queries_return_rows(dbs):
    # guards the test data itself: the parameter values hit real rows
    b, _, params = dbs
    for q in ("Q1", "Q3", "Q4", "Q5", "Q6", "Q7"):
        assert b.execute(QUERIES[q][1], params[0]).fetchall(), q
    assert b.execute(QUERIES["Q2"][1], params[1]).fetchall()
