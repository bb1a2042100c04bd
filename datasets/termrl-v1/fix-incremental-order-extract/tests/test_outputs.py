"""The fixed /app/extract/extract.py, run after every burst of changes to a shop database generated here,
must leave dw_orders equal to the source's live orders (EXTRACT.md)."""
import hashlib
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import shopsim  # noqa: E402

TOOL = "/app/extract/extract.py"
RNG = random.Random(random.getrandbits(64))


def extract(tmp_path):
    r = subprocess.run(["python3", TOOL, str(tmp_path / "shop.db"), str(tmp_path / "dw.db"), str(tmp_path / "state.json")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]


def warehouse(tmp_path):
    con = sqlite3.connect(tmp_path / "dw.db")
    try:
        return sorted(con.execute("SELECT id, customer, status, total_cents, updated_at FROM dw_orders").fetchall())
    finally:
        con.close()


def check(tmp_path, shop, when):
    shop.commit()
    extract(tmp_path)
    want = shop.extracted()
    got = warehouse(tmp_path)
    if got != want:
        g, w = set(got), set(want)
        missing = sorted(w - g)[:3]
        extra = sorted(g - w)[:3]
        raise AssertionError(f"{when}: dw_orders has {len(got)} rows, expected {len(want)}; "
                             f"missing/outdated: {missing}; unexpected: {extra}")


def history(tmp_path, shop, runs, steps, late_share):
    for _ in range(RNG.randint(20, 40)):
        shop.insert()
    check(tmp_path, shop, "first run")
    for k in range(runs):
        for _ in range(RNG.randint(*steps)):
            shop.step(late_share)
        check(tmp_path, shop, f"run {k + 2}")


def test_updates_reach_the_warehouse(tmp_path):
    shop = shopsim.Shop(tmp_path / "shop.db", RNG, style="zulu")
    for _ in range(30):
        shop.insert()
    check(tmp_path, shop, "first run")
    for k in range(4):
        for _ in range(10):
            shop.update()
        check(tmp_path, shop, f"after updates, run {k + 2}")


def test_soft_deletes_remove_rows(tmp_path):
    shop = shopsim.Shop(tmp_path / "shop.db", RNG, style="zulu")
    for _ in range(30):
        shop.insert()
    check(tmp_path, shop, "first run")
    for k in range(3):
        for _ in range(5):
            shop.delete()
        shop.insert()
        check(tmp_path, shop, f"after deletes, run {k + 2}")


def test_mixed_timestamp_formats(tmp_path):
    shop = shopsim.Shop(tmp_path / "shop.db", RNG)
    history(tmp_path, shop, runs=8, steps=(3, 12), late_share=0.0)


def test_late_commits_within_the_lag(tmp_path):
    shop = shopsim.Shop(tmp_path / "shop.db", RNG, style="zulu")
    history(tmp_path, shop, runs=10, steps=(2, 8), late_share=0.5)


def test_long_random_history(tmp_path):
    shop = shopsim.Shop(tmp_path / "shop.db", RNG)
    history(tmp_path, shop, runs=15, steps=(1, 25), late_share=0.2)


def test_rerun_without_changes_changes_nothing(tmp_path):
    shop = shopsim.Shop(tmp_path / "shop.db", RNG)
    history(tmp_path, shop, runs=3, steps=(5, 10), late_share=0.2)
    rows = warehouse(tmp_path)
    for _ in range(2):
        check(tmp_path, shop, "rerun")
    assert warehouse(tmp_path) == rows


def test_source_untouched_and_table_definition_kept(tmp_path):
    shop = shopsim.Shop(tmp_path / "shop.db", RNG)
    history(tmp_path, shop, runs=2, steps=(5, 10), late_share=0.2)
    shop.commit()
    digest = hashlib.sha256((tmp_path / "shop.db").read_bytes()).hexdigest()
    extract(tmp_path)
    assert hashlib.sha256((tmp_path / "shop.db").read_bytes()).hexdigest() == digest, "the source database was modified"
    con = sqlite3.connect(tmp_path / "dw.db")
    cols = [(r[1], r[2], r[3], r[5]) for r in con.execute("PRAGMA table_info(dw_orders)")]
    con.close()
    assert cols == [("id", "INTEGER", 0, 1), ("customer", "TEXT", 1, 0), ("status", "TEXT", 1, 0),
                    ("total_cents", "INTEGER", 1, 0), ("updated_at", "TEXT", 1, 0)], cols


def test_stays_incremental(tmp_path):
    shop = shopsim.Shop(tmp_path / "shop.db", RNG)
    for _ in range(20):
        shop.insert()
    check(tmp_path, shop, "first run")
    shop.now += shopsim.timedelta(minutes=10)
    for _ in range(10):
        shop.step(0.0)
    check(tmp_path, shop, "second run")
    oldest = shop.con.execute("SELECT id FROM orders WHERE deleted_at IS NULL ORDER BY id LIMIT 1").fetchone()[0]
    before = [r for r in warehouse(tmp_path) if r[0] == oldest]
    shop.con.execute("UPDATE orders SET customer = 'BACKDOOR EDIT' WHERE id = ?", (oldest,))
    shop.commit()
    extract(tmp_path)
    after = [r for r in warehouse(tmp_path) if r[0] == oldest]
    assert after == before, ("a row changed 10 minutes behind the newest change, without a new updated_at, was re-read: "
                             "the extract is not incremental")
