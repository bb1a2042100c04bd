"""The notes search: databases created here from /app/app/schema.sql are written with random INSERT, UPDATE,
DELETE and INSERT OR REPLACE statements, then /app/app/search.py is compared with a search over a freshly
built FTS5 index of the final rows; the shipped /app/data/notes.db is checked on a copy."""
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

APP = Path(os.environ.get("NOTES_APP", "/app/app"))
SHIPPED = Path(os.environ.get("NOTES_DB", "/app/data/notes.db"))
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
SHIPPED_NOTES_COUNT, SHIPPED_NOTES_HASH = 354, 152683   # /app/data/notes.db as built
WORDS = ("orbit lantern quarry ledger harbor meadow falcon cobalt timber saddle velvet anchor pepper "
         "summit thistle copper beacon willow glacier marble ember canyon "
         "café crème résumé über naïve señor e-mail follow-up don't and or not near title").split()


def text(n, words=WORDS):
    return " ".join(RNG.choice(words) for _ in range(n))


def fts_term(term):
    prefix = term.endswith("*")
    core = term.rstrip("*") if prefix else term
    return '"' + core.replace('"', '""') + '"' + ("*" if prefix else "")


def expected(db, terms):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT id, title, body FROM notes").fetchall()
    con.close()
    mem = sqlite3.connect(":memory:")
    mem.execute("CREATE VIRTUAL TABLE ref USING fts5(title, body)")
    mem.executemany("INSERT INTO ref (rowid, title, body) VALUES (?,?,?)", rows)
    q = " AND ".join(fts_term(w) for t in terms for w in t.split())
    return [r[0] for r in mem.execute("SELECT rowid FROM ref WHERE ref MATCH ? ORDER BY bm25(ref, 5.0, 1.0), rowid LIMIT 20", (q,))]


def search(db, terms):
    p = subprocess.run([sys.executable, str(APP / "search.py"), str(db), *terms], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, f"search.py {terms!r} failed: {p.stderr[-600:]}"
    return [int(x) for x in p.stdout.split()]


def integrity(db):
    con = sqlite3.connect(db)
    try:
        con.execute("INSERT INTO notes_fts (notes_fts, rank) VALUES ('integrity-check', 1)")
    except sqlite3.DatabaseError as e:
        pytest.fail(f"the full-text index does not match the notes table: {e}")
    finally:
        con.close()


def new_db(tmp_path, name="n.db"):
    db = tmp_path / name
    p = subprocess.run(["sqlite3", str(db)], stdin=(APP / "schema.sql").open("rb"), capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    return db


def assert_external_content(db):
    """notes_fts is an external-content FTS5 index over notes (title, body): no second copy of the text."""
    con = sqlite3.connect(db)
    try:
        sql = (con.execute("SELECT sql FROM sqlite_master WHERE name = 'notes_fts'").fetchone() or [""])[0]
        own_copy = con.execute("SELECT count(*) FROM sqlite_master WHERE name = 'notes_fts_content'").fetchone()[0]
        cols = [d[0] for d in con.execute("SELECT * FROM notes_fts LIMIT 0").description]
    finally:
        con.close()
    assert re.search(r"fts5", sql, re.I) and re.search(r"content\s*=\s*'?notes'?", sql) and not own_copy, \
        f"notes_fts must stay an external-content FTS5 index over notes: {sql}"
    assert cols == ["title", "body"], cols


def churn(db, n_rows=120, n_ops=160, ops=("body", "title", "both", "delete", "replace", "insert")):
    con = sqlite3.connect(db)
    ids = [r[0] for r in con.execute("SELECT id FROM notes")]
    for i in range(n_rows):
        cur = con.execute("INSERT INTO notes (title, body) VALUES (?, ?)", (text(RNG.randint(1, 4)).title(), text(RNG.randint(3, 25))))
        ids.append(cur.lastrowid)
    con.commit()
    for _ in range(n_ops):
        op = RNG.choice(ops)
        i = RNG.choice(ids)
        if op == "body":
            con.execute("UPDATE notes SET body = ? WHERE id = ?", (text(RNG.randint(3, 25)), i))
        elif op == "title":
            con.execute("UPDATE notes SET title = ? WHERE id = ?", (text(RNG.randint(1, 4)).title(), i))
        elif op == "both":
            con.execute("UPDATE notes SET title = ?, body = ?, updated_at = '2030-01-01' WHERE id = ?", (text(2), text(9), i))
        elif op == "delete":
            con.execute("DELETE FROM notes WHERE id = ?", (i,))
        elif op == "replace":
            con.execute("INSERT OR REPLACE INTO notes (id, title, body) VALUES (?, ?, ?)", (i, text(2).title(), text(RNG.randint(3, 20))))
        else:
            con.execute("INSERT INTO notes (id, title, body) VALUES (?, ?, ?)", (max(ids) + 1, text(2), text(8)))
            ids.append(max(ids) + 1)
        if RNG.random() < 0.3:
            con.commit()
    con.commit()
    con.close()


def queries():
    plain = [w for w in WORDS if re.fullmatch(r"[a-z]+", w) and w not in ("and", "or", "not", "near", "title")]
    qs = [[RNG.choice(plain)] for _ in range(4)]
    qs += [[RNG.choice(plain), RNG.choice(plain)], [f"{RNG.choice(plain)} {RNG.choice(plain)}"]]
    qs += [[RNG.choice(plain)[:3] + "*"], [RNG.choice(plain).upper()], ["cafe"], ["CRÈME"], ["resume*"]]
    return qs


def check_queries(db, qs):
    for terms in qs:
        assert search(db, terms) == expected(db, terms), f"search {terms!r} (seed {SEED})"


def test_schema_keeps_an_external_content_index(tmp_path):
    db = new_db(tmp_path)
    assert_external_content(db)
    churn(db, n_rows=30, n_ops=40)
    assert_external_content(db)
    integrity(db)


def test_search_on_new_database(tmp_path):
    db = new_db(tmp_path)
    churn(db, n_ops=0)
    check_queries(db, queries())


def test_updates_and_deletes_keep_index(tmp_path):
    db = new_db(tmp_path)
    churn(db, ops=("body", "title", "both", "delete", "insert"))
    integrity(db)
    check_queries(db, queries())


def test_insert_or_replace_keeps_index(tmp_path):
    db = new_db(tmp_path)
    churn(db, ops=("replace", "replace", "body"))
    integrity(db)
    check_queries(db, queries())


def test_terms_are_literal(tmp_path):
    db = new_db(tmp_path)
    churn(db, n_rows=200, n_ops=0)
    for terms in (["don't"], ["e-mail"], ["NOT"], ["and"], ["OR", "near"], ["follow-up", "NEAR"], ["title:café"],
                  ['say"cobalt'], ["(orbit"], ["über*"], ["copper*", "-glacier"]):
        assert search(db, terms) == expected(db, terms), f"search {terms!r} (seed {SEED})"


def test_ranking_weights_title(tmp_path):
    db = new_db(tmp_path)
    con = sqlite3.connect(db)
    w = RNG.choice(["orbit", "ledger", "falcon"])
    # in the title once versus in a body three times: with title weight 5 the title match wins
    con.execute("INSERT INTO notes (id, title, body) VALUES (10, 'alpha beta', ?)", (f"{w} {w} {w} gamma delta",))
    con.execute("INSERT INTO notes (id, title, body) VALUES (20, ?, 'gamma delta epsilon zeta')", (f"{w} beta",))
    con.execute("INSERT INTO notes (id, title, body) VALUES (30, 'beta', ?)", (f"gamma {w} delta",))
    con.execute("INSERT INTO notes (id, title, body) VALUES (25, 'beta', ?)", (f"gamma {w} delta",))   # tie with 30
    for i in range(40, 60):
        con.execute("INSERT INTO notes (id, title, body) VALUES (?, 'other', 'nothing here at all')", (i,))
    con.commit()
    con.close()
    got = search(db, [w])
    assert got == expected(db, [w]) and got[0] == 20 and got.index(25) < got.index(30), got


def test_limit_twenty(tmp_path):
    db = new_db(tmp_path)
    con = sqlite3.connect(db)
    for i in range(1, 41):
        con.execute("INSERT INTO notes (id, title, body) VALUES (?, 'same', 'cobalt')", (i * 3,))
    con.commit()
    con.close()
    assert search(db, ["cobalt"]) == [i * 3 for i in range(1, 21)]


@pytest.fixture()
def shipped_copy(tmp_path):
    db = tmp_path / "shipped.db"
    shutil.copy(SHIPPED, db)
    return db


def test_shipped_database_repaired(shipped_copy):
    con = sqlite3.connect(shipped_copy)
    n, h = con.execute("SELECT count(*), sum(length(title) * 7 + length(body) + id) FROM notes").fetchone()
    con.close()
    assert (n, h) == (SHIPPED_NOTES_COUNT, SHIPPED_NOTES_HASH), "the notes themselves must not change"
    assert_external_content(shipped_copy)
    integrity(shipped_copy)
    plain = ["budget", "review", "kitchen", "café", "résumé", "don't", "e-mail", "NOT", "to-do", "rel*", "Zurich"]
    for t in plain:
        assert search(shipped_copy, [t]) == expected(shipped_copy, [t]), t


def test_shipped_database_keeps_index_on_writes(shipped_copy):
    churn(shipped_copy, n_rows=20, n_ops=120)
    integrity(shipped_copy)
    check_queries(shipped_copy, queries())
