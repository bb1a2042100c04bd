"""/app/db/migrate.py on version-1 databases generated here (names with inner, leading and trailing spaces,
e-mails that clash by case and spaces, messy tag lists, calls), then the legacy application's SQL is run
against the compatibility view and the version-2 tables are checked."""
import hashlib
import os
import random
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

HERE = Path(__file__).parent
TOOL = os.environ.get("MIGRATE", "/app/db/migrate.py")
V1 = (HERE / "schema_v1.sql").read_text()
V2 = (HERE / "schema_v2.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
FIRST = ["Ann", "Bo", "Carla Maria", "Dee", "Jean-Luc", "Zoë", "Li", "Anna  Sofia", "Émile"]
LAST = ["Lee", "van der Berg", "O'Neil", "Smith", "", "da  Silva", "Núñez"]
TAGS = ["", "vip", "vip,press", " press , vip ", "VIP,,vip", "beta-tester,Vip", "old customer", ",", " a ,b,A ,c d,", "Zeta,alpha,Beta"]


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def fold(s):
    return s.translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"))


def norm_name(full):
    n = full.strip(" ")
    given, sp, family = n.rpartition(" ")
    return (given, family) if sp else (n, "")


def show_name(given, family):
    return given if family == "" else f"{given} {family}"


def norm_tags(tags):
    return ",".join(sorted({t.strip(" ").lower() for t in (tags or "").split(",")} - {""}))


def run(db):
    return subprocess.run([sys.executable, TOOL, str(db)], capture_output=True, text=True, timeout=120)


def make_v1(path, n=150):
    con = sqlite3.connect(path)
    con.executescript(V1)
    rows = []
    for cid in sorted(RNG.sample(range(1, 5000), n)):
        name = (RNG.choice(FIRST) + " " + RNG.choice(LAST)).strip()
        name = RNG.choice([name, " " + name, name + "  ", name])
        user = f"u{RNG.randint(1, 90)}"
        email = RNG.choice([None, "", "  ", f"{user}@example.com", f"{user.upper()}@example.com", f" {user}@Example.COM ", f"{user}@mail.test"])
        created = f"2023-{RNG.randint(1, 12):02d}-{RNG.randint(1, 28):02d} {RNG.randint(0, 23):02d}:00:00"
        tags = RNG.choice(TAGS)
        try:
            con.execute("INSERT INTO contacts VALUES (?,?,?,?,?)", (cid, name, email, tags, created))
        except sqlite3.IntegrityError:
            email = None
            con.execute("INSERT INTO contacts VALUES (?,?,?,?,?)", (cid, name, email, tags, created))
        rows.append((cid, name, email, tags, created))
    ids = [r[0] for r in rows]
    calls = [(k, RNG.choice(ids), f"2024-02-{RNG.randint(1, 28):02d} 09:00:00", RNG.choice([None, "ok", "no answer"])) for k in range(1, 3 * n)]
    con.executemany("INSERT INTO calls VALUES (?,?,?,?)", calls)
    con.commit()
    con.close()
    return rows, calls


def expected_view(rows):
    taken, out = set(), []
    for cid, name, email, tags, created in sorted(rows):
        e = (email or "").strip(" ")
        if e and fold(e) not in taken:
            taken.add(fold(e))
        else:
            e = None
        out.append((cid, show_name(*norm_name(name)), e, norm_tags(tags), created))
    return out


def connect(db):
    con = sqlite3.connect(db)
    con.execute("PRAGMA foreign_keys = ON")
    return con


def view(con):
    return con.execute("SELECT id, full_name, email, tags, created_at FROM contacts ORDER BY id").fetchall()


@pytest.fixture()
def migrated(tmp_path):
    db = tmp_path / "c.db"
    rows, calls = make_v1(db)
    p = run(db)
    assert p.returncode == 0, f"migrate.py failed: {p.stderr[-800:]}"
    return db, rows, calls


def shape(con):
    out = {}
    for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"):
        out[t] = (con.execute(f"PRAGMA table_xinfo('{t}')").fetchall(),
                  sorted(con.execute(f"PRAGMA foreign_key_list('{t}')").fetchall()),
                  sorted((r[1], r[2], r[3], tuple(c[2] for c in con.execute(f"PRAGMA index_info('{r[1]}')"))) for r in con.execute(f"PRAGMA index_list('{t}')")),
                  [r[0] for r in con.execute("SELECT sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE name = ?", (t,))])
    return out


def test_schema_is_version_2_plus_view(migrated):
    db, _, _ = migrated
    con = connect(db)
    ref = sqlite3.connect(":memory:")
    ref.executescript(V2)
    assert shape(con) == shape(ref), "tables, columns, keys or indexes differ from schema_v2.sql"
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    assert con.execute("SELECT type FROM sqlite_master WHERE name = 'contacts'").fetchone() == ("view",)
    assert [r[1] for r in con.execute("PRAGMA table_info(contacts)")] == ["id", "full_name", "email", "tags", "created_at"]
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_data_moved_by_the_rules(migrated):
    db, rows, calls = migrated
    con = connect(db)
    assert view(con) == expected_view(rows)
    for cid, name, _, _, _ in rows:
        assert con.execute("SELECT given_name, family_name FROM people WHERE id = ?", (cid,)).fetchone() == norm_name(name)
    assert sorted(con.execute("SELECT id, contact_id, at, note FROM calls").fetchall()) == sorted(calls)
    tags = con.execute("SELECT count(*) FROM person_tags").fetchone()[0]
    assert tags == sum(len(norm_tags(r[3]).split(",")) for r in rows if norm_tags(r[3]))


def test_legacy_inserts(migrated):
    db, rows, _ = migrated
    con = connect(db)
    top = max(r[0] for r in rows)
    con.execute("INSERT INTO contacts (full_name, email, tags) VALUES ('  Mia  van Dijk ', ' mia@new.test ', 'B, a,,b')")
    con.execute("INSERT INTO contacts (id, full_name, email, tags, created_at) VALUES (?, 'Solo', NULL, '', '2020-01-01 00:00:00')", (top + 50,))
    con.execute("INSERT INTO contacts (full_name) VALUES ('Kai Ng')")
    con.commit()
    got = {r[0]: r for r in view(con)}
    mia, solo, kai = got[top + 1], got[top + 50], got[top + 51]
    assert mia[1:4] == ("Mia  van Dijk", "mia@new.test", "a,b") and solo[1:] == ("Solo", None, "", "2020-01-01 00:00:00")
    assert kai[1:4] == ("Kai Ng", None, "")
    for r in (mia, kai):
        t = datetime.strptime(r[4], "%Y-%m-%d %H:%M:%S")
        assert abs(t - datetime.utcnow()) < timedelta(hours=2), r
    assert con.execute("SELECT given_name, family_name FROM people WHERE id = ?", (top + 1,)).fetchone() == ("Mia  van", "Dijk")
    taken = next(r for r in view(con) if r[2])
    before = view(con)
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO contacts (full_name, email) VALUES ('Dup Licate', ?)", (" " + taken[2].upper() + " ",))
    con.rollback()
    assert view(con) == before and con.execute("SELECT count(*) FROM people").fetchone()[0] == len(before)


def test_legacy_updates(migrated):
    db, rows, _ = migrated
    con = connect(db)
    a, b = RNG.sample([r[0] for r in rows], 2)
    con.execute("UPDATE contacts SET full_name = ' Rosa  Maria Lopez ', tags = 'X, y ,x' WHERE id = ?", (a,))
    con.execute("UPDATE contacts SET email = ' rosa@Upd.test ' WHERE id = ?", (a,))
    con.execute("UPDATE contacts SET email = NULL WHERE id = ?", (b,))
    con.commit()
    ra = con.execute("SELECT full_name, email, tags FROM contacts WHERE id = ?", (a,)).fetchone()
    assert ra == ("Rosa  Maria Lopez", "rosa@Upd.test", "x,y")
    assert con.execute("SELECT given_name, family_name FROM people WHERE id = ?", (a,)).fetchone() == ("Rosa  Maria", "Lopez")
    assert con.execute("SELECT email FROM contacts WHERE id = ?", (b,)).fetchone() == (None,)
    assert con.execute("SELECT count(*) FROM emails WHERE person_id = ?", (b,)).fetchone() == (0,)
    con.execute("UPDATE contacts SET created_at = '2021-05-05 05:05:05' WHERE id = ?", (b,))
    con.commit()
    # an unrelated column update keeps everything else as it was
    before = view(con)
    con.execute("UPDATE contacts SET tags = tags WHERE id IN (?, ?)", (a, b))
    con.commit()
    assert view(con) == before
    # taking another person's address fails and changes nothing
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("UPDATE contacts SET email = 'ROSA@upd.TEST', full_name = 'Changed' WHERE id = ?", (b,))
    con.rollback()
    assert view(con) == before


def test_legacy_delete_cascades(migrated):
    db, rows, calls = migrated
    con = connect(db)
    victims = RNG.sample([r[0] for r in rows], 5)
    con.execute(f"DELETE FROM contacts WHERE id IN ({','.join('?' * 5)})", victims)
    con.commit()
    for t, col in (("people", "id"), ("emails", "person_id"), ("person_tags", "person_id"), ("calls", "contact_id")):
        assert con.execute(f"SELECT count(*) FROM {t} WHERE {col} IN ({','.join('?' * 5)})", victims).fetchone()[0] == 0, t
    assert con.execute("SELECT count(*) FROM calls").fetchone()[0] == len([c for c in calls if c[1] not in victims])
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []


def test_rerun_and_refusals(tmp_path, migrated):
    db, _, _ = migrated
    d = digest(db)
    p = run(db)
    assert p.returncode == 0 and digest(db) == d, "running again on a version-2 database must change nothing"
    odd = tmp_path / "v7.db"
    make_v1(odd, n=20)
    con = sqlite3.connect(odd)
    con.execute("PRAGMA user_version = 7")
    con.close()
    d = digest(odd)
    assert run(odd).returncode != 0 and digest(odd) == d
    broken = tmp_path / "orphans.db"
    make_v1(broken, n=30)
    con = sqlite3.connect(broken)
    con.execute("INSERT INTO calls VALUES (99999, 123456, '2024-01-01 00:00:00', 'orphan')")
    con.commit()
    con.close()
    d = digest(broken)
    assert run(broken).returncode != 0, "a version-1 database with foreign-key violations must be refused"
    assert digest(broken) == d, "a refused database must be left byte for byte as it was"
