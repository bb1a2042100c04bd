import json
import urllib.error
import urllib.request

import pytest

BASE = "http://127.0.0.1:8080"


def get(path):
    try:
        with urllib.request.urlopen(BASE + path, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_health():
    assert get("/health") == (200, "ok")


@pytest.mark.parametrize("sku,name,count", [("A-100", "hex bolt", 120), ("A-101", "wing nut", 0),
                                            ("C-300", "hinge", 0)])
def test_known_sku(sku, name, count):
    status, body = get(f"/stock/{sku}")
    assert status == 200
    assert json.loads(body) == {"sku": sku, "name": name, "count": count}


@pytest.mark.parametrize("sku", ["Z-999", "a-100", ""])
def test_unknown_sku(sku):
    assert get(f"/stock/{sku}")[0] == 404
