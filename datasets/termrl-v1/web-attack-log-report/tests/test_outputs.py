import hashlib
import json
from pathlib import Path

import pytest

EXPECTED = {'attackers': [{'ip': '10.8.0.5', 'sqli': 0, 'traversal': 0, 'scanner': True, 'successful_attacks': []}, {'ip': '192.0.2.66', 'sqli': 1, 'traversal': 0, 'scanner': True, 'successful_attacks': ['/search?q=x%27%20AND%20(SELECT%201%20FROM%20information_schema.tables)']}, {'ip': '198.51.100.14', 'sqli': 3, 'traversal': 1, 'scanner': False, 'successful_attacks': ['/products?id=12%20UNION%20SELECT%20username,password%20FROM%20users', '/products?id=1;SELECT%20SLEEP(5)']}, {'ip': '203.0.113.77', 'sqli': 0, 'traversal': 3, 'scanner': False, 'successful_attacks': ['/download?file=%252e%252e%252f%252e%252e%252fetc%252fshadow']}], 'total_attack_requests': 8}


@pytest.fixture(scope="module")
def rep():
    return json.loads(Path("/app/attack_report.json").read_text())


def by_ip(rep):
    return {a["ip"]: a for a in rep["attackers"]}


def test_attacker_set_and_order(rep):
    assert [a["ip"] for a in rep["attackers"]] == [a["ip"] for a in EXPECTED["attackers"]]


def test_sqli_counts(rep):
    got = by_ip(rep)
    for a in EXPECTED["attackers"]:
        assert got[a["ip"]]["sqli"] == a["sqli"], a["ip"]


def test_traversal_counts_including_double_encoding(rep):
    got = by_ip(rep)
    for a in EXPECTED["attackers"]:
        assert got[a["ip"]]["traversal"] == a["traversal"], a["ip"]


def test_scanners(rep):
    got = by_ip(rep)
    assert {ip for ip, a in got.items() if a["scanner"] is True} == {"10.8.0.5", "192.0.2.66"}


def test_successful_attacks(rep):
    got = by_ip(rep)
    for a in EXPECTED["attackers"]:
        assert got[a["ip"]]["successful_attacks"] == a["successful_attacks"], a["ip"]


def test_total_and_exact(rep):
    assert rep["total_attack_requests"] == 8
    assert rep == EXPECTED
