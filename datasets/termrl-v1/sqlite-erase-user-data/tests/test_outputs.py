"""/app/gdpr/erase.py on shop databases (WAL mode, edited rows, free pages) generated here: the erased
customer's e-mail, name, phone, addresses and messages must be gone from every byte of the database files,
while their orders stay (anonymised) and nobody else's data changes."""
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from gdprgen import make  # noqa: E402

TOOL = os.environ.get("ERASE", "/app/gdpr/erase.py")
SCHEMA = (HERE / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)


def dump(db):
    con = sqlite3.connect(db)
    out = {t: con.execute(f"SELECT * FROM {t} ORDER BY id").fetchall()
           for t in ("users", "orders", "messages", "audit", "users_history", "messages_archive")}
    out["schema"] = con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    con.close()
    return out


def file_bytes(db):
    data = b""
    for suffix in ("", "-wal", "-journal"):
        p = Path(str(db) + suffix)
        if p.exists():
            data += p.read_bytes()
    return data.lower()


@pytest.fixture(scope="module")
def erased(tmp_path_factory):
    db = tmp_path_factory.mktemp("gdpr") / "shop.db"
    people = make(db, SCHEMA, SEED, users=RNG.randint(60, 100))
    before = dump(db)
    busy = {r[1] for r in before["orders"]} & {r[1] for r in before["messages"]} & {r[1] for r in before["users_history"]}
    uid, email, name, phone = RNG.choice([p for p in people if p[0] in busy])    # has orders and messages
    secrets = [email.lower().encode(), email.split("@")[0].encode(), phone.encode(), name.lower().encode()]
    secrets += [a.lower().encode() for _, u, _, a, _ in before["orders"] if u == uid and a]
    secrets += [b[:40].lower().encode() for _, u, b in before["messages"] if u == uid]
    secrets += [b[:40].lower().encode() for _, u, b, _ in before["messages_archive"] if u == uid]
    arg = RNG.choice([email, email.upper(), f" {email} "])
    p = subprocess.run([sys.executable, TOOL, str(db), arg], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"erase.py failed: {p.stderr[-600:]}"
    return db, uid, email, before, secrets


def test_nothing_left_in_the_files(erased):
    db, uid, email, before, secrets = erased
    data = file_bytes(db)
    left = [s for s in secrets if s in data]
    assert not left, f"{left[:3]} can still be found in the database files (seed {SEED})"


def test_user_anonymised_orders_kept(erased):
    db, uid, email, before, _ = erased
    after = dump(db)
    assert [r for r in after["users"] if r[0] == uid] == [(uid, f"erased-{uid}@invalid", None, None, "2024-01-01 00:00:00")]
    mine = [r for r in before["orders"] if r[1] == uid]
    assert [r for r in after["orders"] if r[1] == uid] == [(o, u, t, None, c) for o, u, t, a, c in mine], "orders must stay, without address"
    assert [r for r in after["messages"] if r[1] == uid] == []


def test_audit_rewritten(erased):
    db, uid, email, before, _ = erased
    after = dict((i, d) for i, _, d in dump(db)["audit"])
    for i, at, d in before["audit"]:
        if email.lower() in d.lower():
            new = json.loads(after[i])
            assert email.lower() not in after[i].lower() and f"erased-{uid}@invalid" in after[i], after[i]
            old = json.loads(d)
            assert set(new) == set(old), "the audit entry keeps its structure"
        else:
            assert after[i] == d, "other audit entries must not change"


def test_everybody_else_untouched(erased):
    db, uid, email, before, _ = erased
    after = dump(db)
    assert [r for r in after["users"] if r[0] != uid] == [r for r in before["users"] if r[0] != uid]
    assert [r for r in after["orders"] if r[1] != uid] == [r for r in before["orders"] if r[1] != uid]
    assert [r for r in after["messages"] if r[1] != uid] == [r for r in before["messages"] if r[1] != uid]
    assert [r for r in after["users_history"] if r[1] != uid] == [r for r in before["users_history"] if r[1] != uid]
    assert [r for r in after["messages_archive"] if r[1] != uid] == [r for r in before["messages_archive"] if r[1] != uid]
    assert after["schema"] == before["schema"], "the schema (tables, triggers) must stay as it is"
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal", "the database stays in WAL mode"


def test_unknown_address_refused(tmp_path):
    db = tmp_path / "shop.db"
    make(db, SCHEMA, SEED + 1, users=20)
    before = dump(db)
    p = subprocess.run([sys.executable, TOOL, str(db), "nobody@nowhere.test"], capture_output=True, text=True, timeout=60)
    assert p.returncode != 0
    assert dump(db) == before
