import json
import random
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import rjson_ref  # noqa: E402


def run(tmp_path, text):
    p = tmp_path / "in.rjson"
    p.write_text(text, encoding="utf-8")
    return subprocess.run(["python3", "/app/rjson.py", str(p)], capture_output=True, timeout=20)


def ok(tmp_path, text):
    r = run(tmp_path, text)
    assert r.returncode == 0, (text, r.stderr)
    assert r.stdout.decode("utf-8") == rjson_ref.normalize(text) + "\n", text
    return r.stdout.decode("utf-8")


def test_example():
    r = subprocess.run(["python3", "/app/rjson.py", "/app/config.rjson"], capture_output=True, timeout=20)
    assert r.returncode == 0
    assert r.stdout.decode() == ('{"name":"override keeps first position","version":31,"ratio":0.5,"limit":10.0,'
                                 '"scale":1000.0,"tags":["a","bé","it\'s"],"nested":{"deep":[1,2,[3]],"empty":{}},'
                                 '"long":"line one line two"}\n')


@pytest.mark.parametrize("text", [
    "[+1, -0x10, 0X1f, 007, .25, 5., -.5e-2, 1E2, 0]",
    "{'a b': \"c//d\", $x_1: '/* not a comment */', _: null, t: true, f: false}",
    "// lead\n/* block\n comment */ [1 /* in */, // tail\n 2]",
    "\"\\ud83d\\ude00 \\u00e9 \\/ \\b\\f\\n\\r\\t \\\" \\' \\\\\"",
    "'tab\\\n  continued'",
    "{a: 1, b: 2, a: 3, c: {}, d: [], }",
    "  \"only a string\"  ",
])
def test_accepts(tmp_path, text):
    ok(tmp_path, text)


@pytest.mark.parametrize("text,line,col", [
    ("{a: 1,\n  b: 'oops}\n", 2, 6),
    ("[1, 2\n", 2, 1),
    ("[1,,2]", 1, 4),
    ("[,]", 1, 2),
    ("{\"k\": \"bad \\x escape\"}", 1, 12),
    ("[1, -Infinity]", 1, 5),
    ("[NaN]", 1, 2),
    ("{1: 2}", 1, 2),
    ("[1] [2]", 1, 5),
    ("/* never closed", 1, 1),
    ("[1.2.3]", 1, 2),
    ("['multi\nline']", 1, 2),
    ("{a 1}", 1, 4),
    ("", 1, 1),
])
def test_errors(tmp_path, text, line, col):
    with pytest.raises(rjson_ref.RError):
        rjson_ref.normalize(text)
    r = run(tmp_path, text)
    assert r.returncode == 1, r.stdout
    assert r.stdout == b""
    err = r.stderr.decode().strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: line {line} col {col}: "), err


def gen(rng, depth=0):
    r = rng.random()
    if depth > 3 or r < 0.4:
        return rng.choice([0, -7, 12345678901234567890, 1.5, -0.25, 1e-7, True, False, None, "plain", "ünï©ødé",
                           "quote\"s'", "line\nbreak", "\U0001F600", "back\\slash", ""])
    if r < 0.7:
        return [gen(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(["k", "key_2", "$", "with space", "ключ"]) + str(rng.randint(0, 3)): gen(rng, depth + 1)
            for _ in range(rng.randint(0, 4))}


def relax(v, rng):
    if isinstance(v, dict):
        items = []
        for k, x in v.items():
            key = k if (k.isidentifier() and k.isascii() and rng.random() < 0.5) else (
                "'" + k.replace("\\", "\\\\").replace("'", "\\'") + "'" if rng.random() < 0.5 else json.dumps(k))
            items.append(key + rng.choice([":", " : "]) + relax(x, rng))
        return "{" + ", /* c */ ".join(items) + ("," if items and rng.random() < 0.5 else "") + "}"
    if isinstance(v, list):
        return "[" + ",\n // c\n".join(relax(x, rng) for x in v) + ("," if v and rng.random() < 0.5 else "") + "]"
    if isinstance(v, str):
        if rng.random() < 0.5:
            return json.dumps(v, ensure_ascii=rng.random() < 0.5)
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, int):
        if v >= 0 and rng.random() < 0.3:
            return hex(v)
        return ("+" if v >= 0 and rng.random() < 0.3 else "") + str(v)
    return repr(v)


@pytest.mark.parametrize("seed", range(6))
def test_generated_roundtrip(tmp_path, seed):
    rng = random.Random(seed)
    v = gen(rng)
    text = relax(v, rng)
    out = ok(tmp_path, text)
    assert json.loads(out) == v
