import hashlib
import json
from pathlib import Path

import pytest

REPORT = Path("/app/incident.json")


@pytest.fixture(scope="module")
def rep():
    assert REPORT.is_file(), "incident.json missing"
    return json.loads(REPORT.read_text())


def test_keys(rep):
    assert set(rep) == {"failed_by_ip", "bruteforce_ips", "compromised", "persistence_users"}


def test_failed_counts(rep):
    assert rep["failed_by_ip"] == {"192.0.2.200": 12, "192.0.2.201": 7, "198.51.100.23": 130,
                                   "2001:db8:ff::7": 126, "203.0.113.45": 135}


def test_bruteforce_ips(rep):
    assert rep["bruteforce_ips"] == ["203.0.113.45", "198.51.100.23", "2001:db8:ff::7"]


def test_compromised(rep):
    assert rep["compromised"] == [
        {"user": "maria", "ip": "198.51.100.23", "time": "2024-02-28T02:55:44"},
        {"user": "root", "ip": "2001:db8:ff::7", "time": "2024-02-28T03:41:16"},
    ]


def test_persistence(rep):
    assert rep["persistence_users"] == ["sysupd", ".hidden"]


def test_logs_untouched():
    digests = {p: hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in ["/var/log/auth.log", "/var/log/auth.log.1"]}
    assert digests == EXPECTED_DIGESTS
EXPECTED_DIGESTS = {"/var/log/auth.log": "6e6abbd9145064507510c5daee9e21a9d6e4aa2861a271ac3974ae5ee4dcfb2e", "/var/log/auth.log.1": "481ef4b329bffd0c9f1acd004f26fddb4af1ed798937922d8b4d9fe8abbba2d2"}
