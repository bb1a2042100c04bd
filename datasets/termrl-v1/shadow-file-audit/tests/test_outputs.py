import json
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def rep():
    return json.loads(Path("/app/account_audit.json").read_text())


def test_keys(rep):
    assert set(rep) == {"empty_password", "weak_hash", "uid0_accounts", "duplicate_uids", "missing_shadow",
                        "system_login_shells"}


def test_empty_password(rep):
    assert rep["empty_password"] == ["carol", "svc-report"]


def test_weak_hash(rep):
    assert rep["weak_hash"] == ["bob", "dave", "toor"]


def test_uid0_and_duplicates(rep):
    assert rep["uid0_accounts"] == ["toor"]
    assert rep["duplicate_uids"] == [0, 1001]


def test_missing_shadow(rep):
    assert rep["missing_shadow"] == ["ghost"]


def test_system_login_shells(rep):
    assert rep["system_login_shells"] == ["postgres", "www-data"]
