"""Behaviour of /app/migrate.py on migration sets generated here, with names, versions and data the agent
never saw: atomic steps, SQL splitting, bookkeeping, the refusals, going down and dry runs."""
import datetime as dt
import hashlib
import os
import random
import sqlite3
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
MIGRATE = "/app/migrate.py"


def word():
    return "".join(RNG.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(RNG.randint(4, 8)))


def run(db, mdir, *args):
    return subprocess.run(["python3", MIGRATE, str(db), str(mdir), *args], capture_output=True, text=True,
                          timeout=60)


class Set:
    """Four migrations with random versions and names: a table with a ';' literal, a table with a trigger,
    an added column with an index, a view. Every one has a down file."""

    def __init__(self, root: Path):
        self.dir = root / "migrations"
        self.dir.mkdir()
        self.versions = sorted(RNG.sample(range(1, 9000), 4))
        self.names = [f"{v:04d}_{word()}" for v in self.versions]
        self.a, self.b, self.view = f"t_{word()}", f"t_{word()}", f"v_{word()}"
        self.literal = f"{word()}; {word()} ';' end"
        quoted = self.literal.replace("'", "''")
        self.note = f"{word()};{word()}"
        ups = [
            f"CREATE TABLE {self.a} (\n    id INTEGER PRIMARY KEY,\n    label TEXT NOT NULL\n);\n"
            f"INSERT INTO {self.a} (label) VALUES ('{quoted}');\n",
            f"CREATE TABLE {self.b} (id INTEGER PRIMARY KEY, note TEXT);\n"
            f"CREATE TRIGGER trg_{self.b} AFTER INSERT ON {self.b}\nBEGIN\n"
            f"    INSERT INTO {self.a} (label) VALUES ('from b; ' || NEW.note);\n"
            f"    UPDATE {self.b} SET note = NEW.note || ';seen' WHERE id = NEW.id;\nEND;\n",
            f"ALTER TABLE {self.a} ADD COLUMN score INTEGER NOT NULL DEFAULT 7;\n"
            f"CREATE INDEX idx_{self.a}_score ON {self.a}(score);\n",
            f"CREATE VIEW {self.view} AS SELECT label, score FROM {self.a} WHERE score > 0;\n",
        ]
        downs = [f"DROP TABLE {self.a};\n", f"DROP TRIGGER trg_{self.b};\nDROP TABLE {self.b};\n",
                 f"DROP INDEX idx_{self.a}_score;\nALTER TABLE {self.a} DROP COLUMN score;\n",
                 f"DROP VIEW {self.view};\n"]
        for name, up, down in zip(self.names, ups, downs):
            (self.dir / f"{name}.up.sql").write_text(up)
            (self.dir / f"{name}.down.sql").write_text(down)
        (self.dir / "README.txt").write_text("not a migration\n")

    def up(self, i):
        return self.dir / f"{self.names[i]}.up.sql"

    def down(self, i):
        return self.dir / f"{self.names[i]}.down.sql"


@pytest.fixture()
def mset(tmp_path):
    return Set(tmp_path)


def rows(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version").fetchall()
    finally:
        con.close()


def objects(db):
    con = sqlite3.connect(db)
    try:
        return {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
    finally:
        con.close()


def test_fresh_database_gets_every_migration(mset, tmp_path):
    db = tmp_path / "app.db"
    r = run(db, mset.dir)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"up {n}" for n in mset.names] + [f"at {mset.versions[-1]:04d}"]
    got = rows(db)
    assert [(v, n) for v, n, _, _ in got] == list(zip(mset.versions, mset.names))
    for i, (_, _, checksum, applied_at) in enumerate(got):
        assert checksum == hashlib.sha256(mset.up(i).read_bytes()).hexdigest()
        when = dt.datetime.fromisoformat(applied_at.replace("Z", "+00:00"))
        assert when.utcoffset() in (None, dt.timedelta(0))
    con = sqlite3.connect(db)
    assert con.execute(f"SELECT label, score FROM {mset.a}").fetchall() == [(mset.literal, 7)]
    con.execute(f"INSERT INTO {mset.b} (note) VALUES (?)", (mset.note,))
    con.commit()
    assert con.execute(f"SELECT label FROM {mset.a} ORDER BY id").fetchall()[-1] == (f"from b; {mset.note}",)
    assert con.execute(f"SELECT note FROM {mset.b}").fetchall() == [(mset.note + ";seen",)]
    assert con.execute(f"SELECT COUNT(*) FROM {mset.view}").fetchone() == (2,)


def test_second_run_and_partial_target(mset, tmp_path):
    db = tmp_path / "app.db"
    r = run(db, mset.dir, "--target", f"{mset.versions[1]:04d}")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"up {mset.names[0]}", f"up {mset.names[1]}", f"at {mset.versions[1]:04d}"]
    assert [v for v, *_ in rows(db)] == mset.versions[:2]
    r = run(db, mset.dir)
    assert r.stdout.splitlines() == [f"up {mset.names[2]}", f"up {mset.names[3]}", f"at {mset.versions[3]:04d}"]
    before = db.read_bytes()
    r = run(db, mset.dir)
    assert r.returncode == 0 and r.stdout == f"at {mset.versions[3]:04d}\n"
    assert db.read_bytes() == before


def test_failing_migration_is_rolled_back_completely(mset, tmp_path):
    db = tmp_path / "app.db"
    late = f"t_{word()}"
    # inserted between the 2nd and 3rd migration: its first statement succeeds, its second fails
    version = RNG.randint(mset.versions[1] + 1, mset.versions[2] - 1) if mset.versions[2] - mset.versions[1] > 1 else None
    if version is None:
        pytest.skip("no free version")  # pragma: no cover - RNG.sample gaps make this vanishingly rare
    bad = mset.dir / f"{version:04d}_{word()}.up.sql"
    bad.write_text(f"CREATE TABLE {late} (id INTEGER PRIMARY KEY);\nCREATE INDEX idx_{late} ON {late}(id);\n"
                   f"INSERT INTO {mset.a} (no_such_column) VALUES (1);\n")
    r = run(db, mset.dir)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.startswith(f"failed: {bad.name[:-len('.up.sql')]}: "), r.stderr
    assert "no_such_column" in r.stderr
    assert [v for v, *_ in rows(db)] == mset.versions[:2]
    assert late not in objects(db) and f"idx_{late}" not in objects(db), "the failed migration left objects behind"
    assert mset.view not in objects(db)
    bad.write_text(f"CREATE TABLE {late} (id INTEGER PRIMARY KEY);\n")
    r = run(db, mset.dir)
    assert r.returncode == 0, r.stderr
    assert [v for v, *_ in rows(db)] == sorted(mset.versions + [version])


def test_checksum_drift_and_missing_files_change_nothing(mset, tmp_path):
    db = tmp_path / "app.db"
    assert run(db, mset.dir, "--target", f"{mset.versions[2]:04d}").returncode == 0
    before = db.read_bytes()
    i = RNG.randrange(3)
    original = mset.up(i).read_text()
    mset.up(i).write_text(original + "-- edited later\n")
    r = run(db, mset.dir)
    assert r.returncode == 3 and f"checksum mismatch: {mset.versions[i]:04d}" in r.stderr, (r.returncode, r.stderr)
    assert db.read_bytes() == before
    mset.up(i).write_text(original)
    mset.up(i).rename(mset.dir / "moved-away.sql")
    r = run(db, mset.dir)
    assert r.returncode == 3 and f"missing migration: {mset.versions[i]:04d}" in r.stderr, (r.returncode, r.stderr)
    assert db.read_bytes() == before


def test_out_of_order_is_refused(mset, tmp_path):
    db = tmp_path / "app.db"
    assert run(db, mset.dir, "--target", f"{mset.versions[2]:04d}").returncode == 0
    before = db.read_bytes()
    gaps = [v for v in range(mset.versions[0] + 1, mset.versions[2]) if v != mset.versions[1]]
    version = RNG.choice(gaps)
    (mset.dir / f"{version:04d}_{word()}.up.sql").write_text(f"CREATE TABLE t_{word()} (id INTEGER);\n")
    r = run(db, mset.dir)
    assert r.returncode == 5 and f"out of order: {version:04d}" in r.stderr, (r.returncode, r.stderr)
    assert db.read_bytes() == before


def test_going_down_and_irreversible(mset, tmp_path):
    db = tmp_path / "app.db"
    assert run(db, mset.dir).returncode == 0
    r = run(db, mset.dir, "--target", f"{mset.versions[1]:04d}")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"down {mset.names[3]}", f"down {mset.names[2]}", f"at {mset.versions[1]:04d}"]
    assert [v for v, *_ in rows(db)] == mset.versions[:2]
    assert mset.view not in objects(db) and f"idx_{mset.a}_score" not in objects(db)
    con = sqlite3.connect(db)
    assert [c[1] for c in con.execute(f"PRAGMA table_info({mset.a})")] == ["id", "label"]
    con.close()
    before = db.read_bytes()
    mset.down(0).unlink()
    r = run(db, mset.dir, "--target", "0")
    assert r.returncode == 4 and f"irreversible: {mset.versions[0]:04d}" in r.stderr, (r.returncode, r.stderr)
    assert db.read_bytes() == before
    r = run(db, mset.dir, "--target", f"{mset.versions[0]:04d}")
    assert r.returncode == 0 and r.stdout.splitlines() == [f"down {mset.names[1]}", f"at {mset.versions[0]:04d}"]


def test_dry_run_changes_nothing(mset, tmp_path):
    db = tmp_path / "app.db"
    assert run(db, mset.dir, "--target", f"{mset.versions[0]:04d}").returncode == 0
    before = db.read_bytes()
    r = run(db, mset.dir, "--dry-run")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"up {n}" for n in mset.names[1:]] + [f"at {mset.versions[3]:04d}"]
    r = run(db, mset.dir, "--dry-run", "--target", "0")
    assert r.stdout.splitlines() == [f"down {mset.names[0]}", "at 0000"]
    assert db.read_bytes() == before
    fresh = tmp_path / "fresh.db"
    sqlite3.connect(fresh).close()
    before = fresh.read_bytes()
    r = run(fresh, mset.dir, "--dry-run")
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == f"at {mset.versions[3]:04d}"
    assert fresh.read_bytes() == before
