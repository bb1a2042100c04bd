import csv
import json
import random
import subprocess

import pytest


def ref(records):
    def esc(k):
        return k.replace("\\", "\\\\").replace(".", "\\.")

    def walk(v, p, o):
        if isinstance(v, dict):
            if not v:
                o[p] = "{}"
            for k, x in v.items():
                walk(x, (p + "." if p else "") + esc(k), o)
        elif isinstance(v, list):
            if not v:
                o[p] = "[]"
            for i, x in enumerate(v):
                walk(x, (p + "." if p else "") + str(i), o)
        else:
            o[p] = "" if v is None else v if isinstance(v, str) else json.dumps(v)
    rows, cols = [], []
    for r in records:
        o = {}
        walk(r, "", o)
        rows.append(o)
        cols += [c for c in o if c not in cols]
    return [cols] + [[o.get(c, "") for c in cols] for o in rows]


def run(tmp_path, payload):
    i, o = tmp_path / "in.json", tmp_path / "out.csv"
    i.write_text(payload, encoding="utf-8")
    r = subprocess.run(["python3", "/app/flatten.py", str(i), str(o)], capture_output=True, timeout=20)
    return r, o


def test_example(tmp_path):
    o = tmp_path / "o.csv"
    r = subprocess.run(["python3", "/app/flatten.py", "/app/orders.json", str(o)], capture_output=True, timeout=20)
    assert r.returncode == 0, r.stderr
    rows = list(csv.reader(open(o, newline="", encoding="utf-8")))
    assert rows == ref(json.load(open("/app/orders.json")))
    assert rows[0][:6] == ["id", "customer.name", "customer.address.city", "customer.address.zip", "tags.0", "tags.1"]
    assert "a\\.b" in rows[0] and "items.1.sku" in rows[0]


def gen_value(rng, depth):
    r = rng.random()
    if depth > 3 or r < 0.45:
        return rng.choice([1, -2.5, 1e21, 0.1, True, False, None, "x", "", "a,b", 'q"t', "ünï", "line\nbreak"])
    if r < 0.75:
        return {rng.choice(["k", "a.b", "back\\slash", "z", "n1", "2"]): gen_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    return [gen_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]


@pytest.mark.parametrize("seed", range(6))
def test_generated(tmp_path, seed):
    rng = random.Random(seed)
    recs = [{rng.choice(["id", "user", "data", "x.y", "list"]): gen_value(rng, 0) for _ in range(rng.randint(0, 5))}
            for _ in range(rng.randint(1, 25))]
    r, o = run(tmp_path, json.dumps(recs, ensure_ascii=rng.random() < 0.5))
    assert r.returncode == 0, r.stderr
    assert list(csv.reader(open(o, newline="", encoding="utf-8"))) == ref(recs)


@pytest.mark.parametrize("payload", ['{"a": 1}', '[1, 2]', '[{"a": 1}, "x"]', 'not json'])
def test_rejects_bad_input(tmp_path, payload):
    r, o = run(tmp_path, payload)
    assert r.returncode == 1
    assert r.stderr
    assert not o.exists() or o.read_text() == ""
