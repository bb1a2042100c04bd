"""/app/sqlread.py on SQLite databases generated here with random page sizes, encodings, schemas and
values; the answers are compared with what SQLite itself returns. The tool runs where the sqlite3
module and the sqlite3 program are unavailable."""
import json
import os
import random
import shutil
import sqlite3
import struct
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = os.environ.get("SQLREAD", "/app/sqlread.py")
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
BLOCKER = Path("/tmp/_no_sqlite")


@pytest.fixture(scope="session", autouse=True)
def no_sqlite():
    """Shadow the sqlite3 module for the tool (and anything it starts) and hide the sqlite3 program."""
    for mod in ("sqlite3", "_sqlite3", "ctypes", "_ctypes", "apsw"):
        d = BLOCKER / mod
        d.mkdir(parents=True, exist_ok=True)
        (d / "__init__.py").write_text(f"raise ImportError('{mod} is not available to sqlread.py')\n")
    hidden = []
    for exe in ("/usr/bin/sqlite3", "/usr/local/bin/sqlite3"):
        if os.path.exists(exe) and "SQLREAD" not in os.environ:
            os.rename(exe, exe + ".hidden-by-tests")
            hidden.append(exe)
    yield
    for exe in hidden:
        os.rename(exe + ".hidden-by-tests", exe)
    shutil.rmtree(BLOCKER, ignore_errors=True)


def tool(*args):
    env = dict(os.environ, PYTHONPATH=str(BLOCKER))
    r = subprocess.run([sys.executable, TOOL, *map(str, args)], capture_output=True, timeout=300, env=env)
    assert r.returncode == 0, f"sqlread.py {' '.join(map(str, args[1:]))} failed (seed {SEED}): {r.stderr.decode()[-2000:]}"
    return r.stdout.decode("utf-8")


def norm(v):
    if isinstance(v, bytes):
        return {"blob": v.hex()}
    return v


def typed(v):
    """Compare values with their JSON type: 3 and 3.0 differ."""
    if isinstance(v, list):
        return [typed(x) for x in v]
    return (type(v).__name__, v)


def expected_rows(con, table):
    return [[norm(v) for v in row] for row in con.execute(f'SELECT * FROM "{table}"')]


def dumped_rows(db, table):
    return [json.loads(line) for line in tool(db, "dump", table).splitlines()]


def check_table(db, table):
    con = sqlite3.connect(db)
    want = expected_rows(con, table)
    got = dumped_rows(db, table)
    assert len(got) == len(want), f"{table}: {len(got)} rows, SQLite has {len(want)} (seed {SEED})"
    for i, (g, w) in enumerate(zip(got, want)):
        assert typed(g) == typed(w), f"{table} row {i}: got {str(g)[:300]} want {str(w)[:300]} (seed {SEED})"


# --- random values ---------------------------------------------------------------------------------------

def rint():
    bits = RNG.choice([0, 1, 7, 8, 15, 16, 23, 24, 31, 32, 47, 48, 62, 63])
    v = RNG.randint(0, 2 ** bits) if bits else RNG.choice([0, 1])
    v = min(v, 2 ** 63 - 1)
    return -v if RNG.random() < 0.3 else v


ALPHABET = "abcdefghijklmnopqrstuvwxyz ABC,;'\"\n" + "éßøЖ中文🙂"
POOL = "".join(RNG.choices(ALPHABET, k=250_000))
MAX_VALUE = 120_000


def rtext(n=None):
    n = RNG.choice([0, 1, 5, 20, 60]) if n is None else min(n, MAX_VALUE)
    i = RNG.randrange(len(POOL) - n)
    return POOL[i:i + n]


def rblob(n):
    return os.urandom(min(n, MAX_VALUE))


def rvalue(kind, page):
    r = RNG.random()
    if r < 0.08:
        return None
    if kind == "int":
        return rint()
    if kind == "real":
        return float(RNG.randint(-10 ** 6, 10 ** 6)) if r < 0.4 else RNG.uniform(-1e9, 1e9)
    if kind == "blob":
        n = RNG.choice([0, 3, 40, page // 2, page * 3 + 17]) if r < 0.6 else RNG.randint(0, page * 2)
        return rblob(n)
    if kind == "text":
        return rtext(RNG.choice([0, 4, 30, page // 3, page + 5, page * 4]) if r < 0.5 else None)
    return RNG.choice([rint(), RNG.uniform(-100, 100), rtext(), os.urandom(RNG.randint(0, 30))])


TYPES = {"int": ["INTEGER", "INT", "BIGINT", "int8"], "real": ["REAL", "DOUBLE PRECISION", "FLOAT"],
         "text": ["TEXT", "VARCHAR(40)", "NVARCHAR(12)", "CLOB"], "blob": ["BLOB", ""], "any": ["NUMERIC", "", "DECIMAL(10,2)"]}


def make_db(path, page_size, encoding="UTF-8", auto_vacuum=0, rows=300, big=False):
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA page_size = {page_size}")
    con.execute(f"PRAGMA encoding = '{encoding}'")
    con.execute(f"PRAGMA auto_vacuum = {auto_vacuum}")
    tables = {}
    # a rowid table whose INTEGER PRIMARY KEY is an alias of the rowid
    kinds = [RNG.choice(list(TYPES)) for _ in range(RNG.randint(3, 6))]
    cols = [f"c{i} {RNG.choice(TYPES[k])}" for i, k in enumerate(kinds)]
    pos = RNG.randrange(len(cols) + 1)
    cols.insert(pos, "id INTEGER PRIMARY KEY" if RNG.random() < 0.5 else "id integer NOT NULL")
    pk_clause = "" if "PRIMARY" in cols[pos] else ", PRIMARY KEY (id)"
    con.execute(f"CREATE TABLE items ({', '.join(cols)}{pk_clause})")
    ids = RNG.sample(range(1, 10 ** 6), rows)
    for rid in ids:
        vals = [rvalue(k, page_size) for k in kinds]
        vals.insert(pos, rid)
        con.execute(f"INSERT INTO items VALUES ({','.join('?' * len(vals))})", vals)
    con.execute("DELETE FROM items WHERE id % 7 = 3")
    con.execute(f"UPDATE items SET c0 = ? WHERE id % 11 = 5", (rvalue(kinds[0], page_size),))
    tables["items"] = kinds
    # a rowid table without an alias, with negative and huge rowids and quoted names
    con.execute('CREATE TABLE "order lines" ("select" TEXT, [amount due] REAL, `qty` INT DEFAULT 1, note)')
    for _ in range(rows // 2):
        rid = RNG.choice([RNG.randint(-2 ** 63, -1), RNG.randint(1, 2 ** 63 - 1), RNG.randint(1, 10 ** 4)])
        try:
            con.execute('INSERT INTO "order lines" (rowid, "select", [amount due], qty, note) VALUES (?,?,?,?,?)',
                        (rid, rtext(), RNG.choice([float(RNG.randint(0, 500)), RNG.uniform(0, 500), RNG.randint(0, 9)]),
                         rint(), rvalue("any", page_size)))
        except sqlite3.IntegrityError:
            pass
    # a WITHOUT ROWID table whose primary key is declared apart from the columns, in another order
    con.execute("CREATE TABLE kv (payload TEXT, region TEXT NOT NULL, score REAL, k INTEGER NOT NULL, "
                "CONSTRAINT pk_kv PRIMARY KEY (k, region)) WITHOUT ROWID")
    for k in RNG.sample(range(-5000, 5000), rows):
        region = rtext(RNG.choice([3, 8, page_size // 3, page_size + 11])) if big else rtext(6)
        con.execute("INSERT OR IGNORE INTO kv VALUES (?,?,?,?)",
                    (rvalue("text", page_size), region, RNG.choice([float(k), k / 7]), k))
    # a table grown by ALTER TABLE ADD COLUMN after rows were written
    con.execute("CREATE TABLE people (name TEXT, born INT)")
    for _ in range(rows // 3):
        con.execute("INSERT INTO people VALUES (?, ?)", (rtext(8), RNG.randint(1900, 2020)))
    d_int, d_real = RNG.randint(-99, 99), RNG.choice([RNG.randint(1, 9), round(RNG.uniform(-9, 9), 3)])
    con.execute(f"ALTER TABLE people ADD COLUMN level INTEGER NOT NULL DEFAULT {d_int}")
    con.execute(f"ALTER TABLE people ADD COLUMN ratio REAL DEFAULT {d_real}")
    con.execute("ALTER TABLE people ADD COLUMN city TEXT DEFAULT 'St. John''s, (old) town'")
    con.execute("ALTER TABLE people ADD COLUMN extra BLOB")
    for _ in range(rows // 3):
        con.execute("INSERT INTO people VALUES (?,?,?,?,?,?)",
                    (rtext(8), RNG.randint(1900, 2020), rint(), RNG.uniform(0, 1), rtext(), os.urandom(5)))
    # things that are not tables
    con.execute("CREATE INDEX items_c0 ON items (c0)")
    con.execute("CREATE VIEW v_people AS SELECT name FROM people")
    con.execute("CREATE TRIGGER trg AFTER INSERT ON people BEGIN SELECT 1; END")
    # many small tables so that the schema itself spans pages
    for i in range(RNG.randint(5, 40)):
        name = f"t_{i:02d}_{rtext(0)}{RNG.choice(['x', 'Y', 'long_' * 10])}"
        con.execute(f'CREATE TABLE "{name}" (a INTEGER PRIMARY KEY, b TEXT DEFAULT \'{RNG.choice(["a", "b,c"])}\')')
        con.executemany(f'INSERT INTO "{name}" (b) VALUES (?)', [(rtext(),) for _ in range(RNG.randint(0, 5))])
        tables[name] = None
    con.commit()
    con.close()
    return path


def some_tables(db):
    main = ["items", "order lines", "kv", "people"]
    return main + RNG.sample([t for t in user_tables(db) if t not in main], 1)


def user_tables(db):
    con = sqlite3.connect(db)
    return sorted(r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"))


def test_tables_and_columns(tmp_path):
    db = make_db(tmp_path / "a.db", 1024, rows=60)
    sqlite3.connect(db).execute("CREATE TABLE t_auto (id INTEGER PRIMARY KEY AUTOINCREMENT, x)").connection.commit()
    assert tool(db, "tables").splitlines() == user_tables(db)
    for t in ["items", "order lines", "kv", "people", "t_auto"] + RNG.sample(user_tables(db), 2):
        cols = [r[1] for r in sqlite3.connect(db).execute(f'PRAGMA table_info("{t}")')]
        assert tool(db, "columns", t).splitlines() == cols


@pytest.mark.parametrize("page_size", [4096, 512])
def test_rowid_tables(tmp_path, page_size):
    db = make_db(tmp_path / "r.db", page_size, rows=250)
    check_table(db, "items")
    check_table(db, "order lines")


def test_large_values_spill_over_pages(tmp_path):
    page = RNG.choice([1024, 2048, 8192])
    db = make_db(tmp_path / "big.db", page, rows=120, big=True)
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE docs (id INTEGER PRIMARY KEY, body TEXT, raw BLOB)")
    usable = page
    sizes = [usable - 36, usable - 35, usable - 34, usable, 3 * usable, 10 * usable + 5, 200_000]
    for n in sizes:
        con.execute("INSERT INTO docs (body, raw) VALUES (?, ?)", (rtext(n // 2), rblob(n)))
    con.commit()
    check_table(db, "docs")
    check_table(db, "items")


def test_without_rowid_tables(tmp_path):
    db = make_db(tmp_path / "w.db", RNG.choice([512, 1024, 4096]), rows=350, big=True)
    check_table(db, "kv")


def test_added_columns_take_their_defaults(tmp_path):
    db = make_db(tmp_path / "d.db", RNG.choice([1024, 4096]), rows=240)
    check_table(db, "people")


@pytest.mark.parametrize("encoding", ["UTF-16le", "UTF-16be"])
def test_utf16_databases(tmp_path, encoding):
    db = make_db(tmp_path / "u.db", 2048, encoding=encoding, rows=150, big=True)
    assert tool(db, "tables").splitlines() == user_tables(db)
    for t in ["items", "people", "kv"]:
        check_table(db, t)


def test_auto_vacuum_and_large_pages(tmp_path):
    db = make_db(tmp_path / "v.db", 65536, auto_vacuum=1, rows=150)
    con = sqlite3.connect(db)
    con.execute("DELETE FROM items WHERE id % 3 = 0")
    con.commit()
    con.close()
    for t in some_tables(db):
        check_table(db, t)


def test_a_bigger_database(tmp_path):
    db = make_db(tmp_path / "all.db", RNG.choice([512, 1024]), encoding=RNG.choice(["UTF-8", "UTF-16le"]), rows=500)
    assert tool(db, "tables").splitlines() == user_tables(db)
    for t in some_tables(db):
        check_table(db, t)
