"""/app/schemasync/apply.py on databases and target schemas generated here (added, dropped and reordered
columns, NOT NULL columns with defaults, changed foreign-key actions, new CHECK and UNIQUE constraints, WITHOUT
ROWID tables, new and dropped tables, indexes, triggers and views); the result is compared with the target's
definitions and with the old data carried over."""
import hashlib
import os
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from schemagen import MUTATIONS, base_schema, fill, mutate, to_sql  # noqa: E402

TOOL = os.environ.get("SCHEMASYNC", "/app/schemasync/apply.py")
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def norm(sql):
    return re.sub(r"\s+", " ", sql.replace('"', "")).strip().rstrip(";").strip()


def canon(con):
    out = {}
    for typ, name, tbl, sql in con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"):
        out[(typ, name)] = (tbl, norm(sql[sql.index("("):]) if typ == "table" else norm(sql))
    return out


def run(db, target):
    return subprocess.run([sys.executable, TOOL, str(db), str(target)], capture_output=True, text=True, timeout=120)


def literal(dflt):
    if dflt is None:
        return None
    return dflt.strip("'") if dflt.startswith("'") else int(dflt)


def setup(tmp_path, kinds):
    r = random.Random(RNG.getrandbits(32))
    s = base_schema(r)
    db = tmp_path / "db.sqlite"
    fill(db, s, r, n=r.randint(30, 70))
    t = mutate(s, r, kinds)
    target = tmp_path / "target.sql"
    target.write_text(to_sql(t))
    con = sqlite3.connect(db)
    old = {name: (con.execute(f"SELECT * FROM {name}").description, con.execute(f"SELECT * FROM {name}").fetchall()) for name in s["tables"]}
    con.close()
    return db, target, s, t, old


def check_result(db, target, t, old):
    con = sqlite3.connect(db)
    ref = sqlite3.connect(":memory:")
    ref.executescript(target.read_text())
    assert canon(con) == canon(ref), f"schema differs from the target: {set(canon(con).items()) ^ set(canon(ref).items())} (seed {SEED})"
    for name, tdef in t["tables"].items():
        assert con.execute(f"PRAGMA table_xinfo({name})").fetchall() == ref.execute(f"PRAGMA table_xinfo({name})").fetchall()
        cols = [c[0] for c in tdef["cols"]]
        got = sorted(con.execute(f"SELECT {', '.join(cols)} FROM {name}").fetchall(), key=repr)
        if name in old:
            desc, rows = old[name]
            names = [d[0] for d in desc]
            want = []
            for row in rows:
                vals = dict(zip(names, row))
                want.append(tuple(vals[c] if c in vals else literal(d) for c, _, _, d in tdef["cols"]))
            want = sorted(want, key=repr)
        else:
            want = []
        assert got == want, f"data of {name} not carried over (seed {SEED})"
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    return con


@pytest.mark.parametrize("k", range(4))
def test_random_targets(tmp_path, k):
    kinds = RNG.sample(MUTATIONS, RNG.randint(3, 6))
    db, target, s, t, old = setup(tmp_path, kinds)
    p = run(db, target)
    assert p.returncode == 0, f"apply.py failed for {kinds}: {p.stderr[-600:]} (seed {SEED})"
    check_result(db, target, t, old)


def test_rebuilt_parent_keeps_references(tmp_path):
    db, target, s, t, old = setup(tmp_path, ["reorder_cols", "add_unique"])      # only customers changes
    p = run(db, target)
    assert p.returncode == 0, p.stderr[-600:]
    con = check_result(db, target, t, old)
    con.execute("PRAGMA foreign_keys = ON")
    cid = con.execute("SELECT customer_id FROM orders WHERE customer_id IS NOT NULL LIMIT 1").fetchone()[0]
    con.execute("DELETE FROM customers WHERE id = ?", (cid,))
    assert con.execute("SELECT count(*) FROM orders WHERE customer_id = ?", (cid,)).fetchone()[0] == 0, "ON DELETE CASCADE lost"
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("UPDATE orders SET qty = -1 WHERE id = (SELECT min(id) FROM orders)")     # the trigger is back


def test_all_kinds_at_once(tmp_path):
    kinds = [m for m in MUTATIONS if m not in ("drop_tags",)]
    db, target, s, t, old = setup(tmp_path, kinds)
    p = run(db, target)
    assert p.returncode == 0, p.stderr[-600:]
    check_result(db, target, t, old)


def test_nothing_to_do_changes_nothing(tmp_path):
    db, target, s, t, old = setup(tmp_path, [])
    d = digest(db)
    p = run(db, target)
    assert p.returncode == 0 and digest(db) == d, "a database that already has the target schema must stay byte for byte the same"
    (tmp_path / "second").mkdir()
    db2, target2, s2, t2, old2 = setup(tmp_path / "second", ["add_col", "view_change"])
    assert run(db2, target2).returncode == 0
    d = digest(db2)
    assert run(db2, target2).returncode == 0 and digest(db2) == d, "a second run must change nothing"


@pytest.mark.parametrize("bad", ["notnull_no_default", "check_violated", "unique_violated"])
def test_impossible_targets_refused(tmp_path, bad):
    db, target, s, t, old = setup(tmp_path, ["add_col"])
    sql = target.read_text()
    if bad == "notnull_no_default":
        sql = sql.replace("  city TEXT", "  city TEXT,\n  region TEXT NOT NULL", 1)
    elif bad == "check_violated":
        sql = sql.replace("  memo TEXT", "  memo TEXT,\n  CHECK (qty >= 5)", 1)
    else:
        sql = sql.replace("  city TEXT", "  city TEXT,\n  UNIQUE (city)", 1)
    target.write_text(sql)
    d = digest(db)
    p = run(db, target)
    assert p.returncode != 0, f"{bad}: the data cannot satisfy the target, apply.py must refuse"
    assert digest(db) == d, "a refused database must stay byte for byte the same"
