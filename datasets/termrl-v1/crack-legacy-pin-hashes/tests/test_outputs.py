import hashlib
import sqlite3
from pathlib import Path

import pytest

OUT = Path("/app/cracked.txt")
EXPECTED = [("Alice.W", "004821"), ("bruno", "903311"), ("Chen_L", "000017"), ("EVA", "271828"),
            ("farah", "000099"), ("hana.k", "031415"), ("ivo", "870002"), ("Jules", "123456")]


@pytest.fixture(scope="module")
def lines():
    assert OUT.is_file(), "/app/cracked.txt missing"
    return [l for l in OUT.read_text().splitlines() if l.strip()]


def test_format(lines):
    assert lines
    for l in lines:
        login, sep, pin = l.partition(":")
        assert sep and len(pin) == 6 and pin.isdigit(), l


def test_only_active_operators(lines):
    logins = [l.split(":")[0] for l in lines]
    assert "dmitri" not in logins and "gustav" not in logins
    assert sorted(logins) == sorted(x for x, _ in EXPECTED)


def test_pins_verify_against_db(lines):
    db = sqlite3.connect("/app/operators.db")
    rows = {r[0]: r for r in db.execute("SELECT login, salt, pin_hash, status FROM operators")}
    for l in lines:
        login, pin = l.split(":")
        _, salt, h, _ = rows[login]
        m = bytes.fromhex(salt) + login.lower().encode() + b"|" + pin.encode() + b"kiosk-v2"
        assert hashlib.sha256(hashlib.md5(m).digest()).hexdigest() == h, login


def test_exact_content(lines):
    assert lines == [f"{a}:{b}" for a, b in EXPECTED]


def test_database_untouched():
    db = sqlite3.connect("/app/operators.db")
    rows = list(db.execute("SELECT id, login, status FROM operators ORDER BY id"))
    assert len(rows) == 10
    assert [r[1] for r in rows if r[2] != "active"] == ["dmitri", "gustav"]
    assert hashlib.sha256(Path("/app/operators.db").read_bytes()).hexdigest() == DB_SHA
DB_SHA = "77a2472d03112ba9ad3ea1f8af7e72e6ddf6d4dcc904f6d4f58cc1a8c7810875"
