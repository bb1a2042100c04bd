import copy
import json
import os
import random
import subprocess
import sys
import tempfile

import pytest

sys.path.insert(0, "/tests")
from jpatch_ref import PatchError, apply_patch, json_equal  # noqa: E402

TOOL = "/app/jpatch.py"


def run(doc, patch, raw_doc=None, raw_patch=None):
    with tempfile.TemporaryDirectory() as d:
        dp, pp = os.path.join(d, "doc.json"), os.path.join(d, "patch.json")
        with open(dp, "w") as f:
            f.write(raw_doc if raw_doc is not None else json.dumps(doc))
        with open(pp, "w") as f:
            f.write(raw_patch if raw_patch is not None else json.dumps(patch))
        before = (open(dp).read(), open(pp).read())
        r = subprocess.run([sys.executable, TOOL, dp, pp], capture_output=True, text=True, timeout=60)
        assert (open(dp).read(), open(pp).read()) == before, "input files were modified"
        return r


def strict_equal(a, b):
    """json_equal that also keeps bool vs number apart at every level."""
    return json_equal(a, b)


def expect(doc, patch):
    try:
        return 0, apply_patch(doc, patch)
    except PatchError:
        return 1, None


def check(doc, patch, label=""):
    code, want = expect(doc, patch)
    r = run(doc, patch)
    assert r.returncode == code, f"{label}: exit {r.returncode}, expected {code}\ndoc={json.dumps(doc)}\npatch={json.dumps(patch)}\nstderr={r.stderr}"
    if code == 0:
        got = json.loads(r.stdout)
        assert strict_equal(got, want), f"{label}: got {r.stdout}\nexpected {json.dumps(want)}\ndoc={json.dumps(doc)}\npatch={json.dumps(patch)}"
    else:
        assert r.stdout.strip() == "", f"{label}: failed patch printed output: {r.stdout!r}"


def test_basic_operations():
    doc = {"a": 1, "b": [1, 2, 3], "c": {"d": "x"}, "n": None}
    cases = [
        [{"op": "add", "path": "/e", "value": [1, {"f": 2}]}],
        [{"op": "add", "path": "/b/1", "value": 9}, {"op": "remove", "path": "/b/0"}],
        [{"op": "replace", "path": "/c/d", "value": {"deep": True}}],
        [{"op": "replace", "path": "", "value": [1, 2]}],
        [{"op": "add", "path": "", "value": "whole"}],
        [{"op": "add", "path": "/a", "value": 5, "extra": "ignored"}],
        [{"op": "remove", "path": "/n"}, {"op": "add", "path": "/b/3", "value": 4}],
        [{"op": "add", "path": "/x/y", "value": 1}],
        [{"op": "remove", "path": "/zz"}],
        [{"op": "replace", "path": "/b/3", "value": 1}],
        [{"op": "remove", "path": ""}],
        [{"op": "add", "path": "/a/x", "value": 1}],
        [{"op": "frobnicate", "path": "/a"}],
        [{"path": "/a", "value": 1}],
        [{"op": "add", "value": 1}],
        {"op": "add", "path": "/a", "value": 1},
        [{"op": "add", "path": "a", "value": 1}],
        [],
    ]
    for i, p in enumerate(cases):
        check(doc, p, f"case {i}")


def test_null_value_is_a_value():
    doc = {"a": 1, "b": None, "l": [0]}
    for i, p in enumerate([
        [{"op": "add", "path": "/z", "value": None}],
        [{"op": "replace", "path": "/a", "value": None}],
        [{"op": "test", "path": "/b", "value": None}],
        [{"op": "add", "path": "/l/0", "value": None}],
        [{"op": "test", "path": "/a", "value": None}],
        [{"op": "add", "path": "/z"}],
        [{"op": "replace", "path": "/a"}],
        [{"op": "test", "path": "/b"}],
    ]):
        check(doc, p, f"null case {i}")


def test_pointer_escapes():
    doc = {"a/b": 1, "m~n": 2, "~1": 3, "": {"": 4}, "/": 5, "~0~1": 6, " sp ": 7}
    for i, p in enumerate([
        [{"op": "replace", "path": "/a~1b", "value": 10}],
        [{"op": "remove", "path": "/m~0n"}],
        [{"op": "replace", "path": "/~01", "value": "tilde-one"}],
        [{"op": "remove", "path": "/~1"}],
        [{"op": "test", "path": "/~00~01", "value": 6}, {"op": "remove", "path": "/~00~01"}],
        [{"op": "replace", "path": "/", "value": "empty-key"}],
        [{"op": "replace", "path": "//", "value": "empty-empty"}],
        [{"op": "copy", "from": "/~01", "path": "/~10"}],
        [{"op": "move", "from": "/ sp ", "path": "/~0~0"}],
        [{"op": "remove", "path": "/m~2n"}],
        [{"op": "remove", "path": "/m~n~"}],
        [{"op": "add", "path": "/a~1b/c", "value": 1}],
    ]):
        check(doc, p, f"escape case {i}")


def test_array_indices():
    doc = {"l": [10, 20, 30], "o": {"01": "k", "-": "dash"}}
    for i, p in enumerate([
        [{"op": "add", "path": "/l/-", "value": 40}],
        [{"op": "add", "path": "/l/3", "value": 40}],
        [{"op": "add", "path": "/l/4", "value": 40}],
        [{"op": "add", "path": "/l/0", "value": 5}],
        [{"op": "remove", "path": "/l/-"}],
        [{"op": "replace", "path": "/l/-", "value": 1}],
        [{"op": "remove", "path": "/l/01"}],
        [{"op": "remove", "path": "/l/3"}],
        [{"op": "remove", "path": "/l/-1"}],
        [{"op": "remove", "path": "/l/1e0"}],
        [{"op": "remove", "path": "/l/+1"}],
        [{"op": "test", "path": "/l/-", "value": 30}],
        [{"op": "remove", "path": "/o/01"}],
        [{"op": "replace", "path": "/o/-", "value": 1}],
        [{"op": "add", "path": "/l/1/x", "value": 1}],
    ]):
        check(doc, p, f"index case {i}")


def test_test_operation_equality():
    doc = {"t": True, "f": False, "one": 1, "onef": 1.0, "zero": 0, "s": "1", "n": None,
           "o": {"a": [1, {"b": True}], "c": None}, "l": [1, 2]}
    for i, p in enumerate([
        [{"op": "test", "path": "/t", "value": 1}],
        [{"op": "test", "path": "/one", "value": True}],
        [{"op": "test", "path": "/f", "value": 0}],
        [{"op": "test", "path": "/zero", "value": False}],
        [{"op": "test", "path": "/one", "value": 1.0}],
        [{"op": "test", "path": "/onef", "value": 1}],
        [{"op": "test", "path": "/s", "value": 1}],
        [{"op": "test", "path": "/n", "value": False}],
        [{"op": "test", "path": "/o", "value": {"c": None, "a": [1.0, {"b": True}]}}],
        [{"op": "test", "path": "/o", "value": {"c": None, "a": [1, {"b": 1}]}}],
        [{"op": "test", "path": "/o", "value": {"a": [1, {"b": True}]}}],
        [{"op": "test", "path": "/l", "value": [2, 1]}],
        [{"op": "test", "path": "/l", "value": [True, 2]}],
        [{"op": "test", "path": "/missing", "value": None}],
        [{"op": "test", "path": "", "value": doc}],
    ]):
        check(doc, p, f"test case {i}")


def test_move_and_copy():
    doc = {"a": {"b": {"c": [1, 2, 3]}}, "l": ["x", "y", "z"], "k": 1}
    for i, p in enumerate([
        [{"op": "move", "from": "/l/0", "path": "/l/2"}],
        [{"op": "move", "from": "/l/2", "path": "/l/0"}],
        [{"op": "move", "from": "/l/0", "path": "/l/3"}],
        [{"op": "move", "from": "/l/0", "path": "/l/-"}],
        [{"op": "move", "from": "/a", "path": "/a/b/d"}],
        [{"op": "move", "from": "/a/b", "path": "/a/b"}],
        [{"op": "move", "from": "/nope", "path": "/nope"}],
        [{"op": "move", "from": "/a/b", "path": "/ab"}, {"op": "test", "path": "/a", "value": {}}],
        [{"op": "move", "from": "/k", "path": "/a/b/k"}],
        [{"op": "move", "from": "/a/b", "path": "/a/bb"}],
        [{"op": "copy", "from": "/a/b", "path": "/a/b/self"}],
        [{"op": "copy", "from": "/l", "path": "/l2"}, {"op": "add", "path": "/l2/0", "value": "new"},
         {"op": "test", "path": "/l", "value": ["x", "y", "z"]}],
        [{"op": "copy", "from": "", "path": "/snapshot"}],
        [{"op": "move", "from": "", "path": "/x"}],
        [{"op": "move", "path": "/x"}],
        [{"op": "copy", "from": "/l/3", "path": "/q"}],
    ]):
        check(doc, p, f"move/copy case {i}")


def test_atomic_failure_and_exit_codes(tmp_path):
    doc = {"a": [1, 2]}
    r = run(doc, [{"op": "add", "path": "/b", "value": 1}, {"op": "add", "path": "/a/-", "value": 3},
                  {"op": "test", "path": "/a/0", "value": 2}])
    assert r.returncode == 1 and r.stdout.strip() == ""
    r = run(doc, None, raw_patch="[{\"op\": ")
    assert r.returncode == 2 and r.stdout.strip() == ""
    r = run(None, [], raw_doc="{not json}")
    assert r.returncode == 2 and r.stdout.strip() == ""
    r = subprocess.run([sys.executable, TOOL, str(tmp_path / "missing.json"), str(tmp_path / "p.json")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout.strip() == ""
    r = run({"u": "h\u00e9llo \u2603"}, [{"op": "add", "path": "/v", "value": "\u00fc"}])
    assert r.returncode == 0 and json.loads(r.stdout) == {"u": "h\u00e9llo \u2603", "v": "\u00fc"}


KEYS = ["a", "b", "c/d", "e~f", "~1", "", "x y", "0", "-", "01", "k"]


def rand_value(rng, depth):
    r = rng.random()
    if depth <= 0 or r < 0.4:
        return rng.choice([0, 1, 1.0, 2.5, -3, True, False, None, "s", "", "1", "true", rng.randint(0, 9)])
    if r < 0.7:
        return {rng.choice(KEYS): rand_value(rng, depth - 1) for _ in range(rng.randint(0, 4))}
    return [rand_value(rng, depth - 1) for _ in range(rng.randint(0, 4))]


def esc(tok):
    return tok.replace("~", "~0").replace("/", "~1")


def locations(doc, prefix=""):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from locations(v, prefix + "/" + esc(k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from locations(v, prefix + "/" + str(i))


def rand_path(rng, doc):
    locs = list(locations(doc))
    p = rng.choice(locs)
    r = rng.random()
    if r < 0.45:
        return p
    if r < 0.6:
        return p + "/-"
    if r < 0.8:
        return p + "/" + esc(rng.choice(KEYS))
    if r < 0.9:
        return p + "/" + rng.choice(["3", "00", "1", "~", "~2", "-1"])
    return rng.choice(["", "/", "bad", "/~01", "/c~1d"])


def rand_patch(rng, doc):
    ops = []
    cur = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 5)):
        kind = rng.choice(["add", "add", "remove", "replace", "move", "copy", "test", "test"])
        op = {"op": kind, "path": rand_path(rng, cur)}
        if kind in ("add", "replace"):
            op["value"] = rand_value(rng, 2)
        if kind == "test":
            try:
                v = copy.deepcopy(apply_patch(cur, [{"op": "copy", "from": op["path"], "path": "/__t"}])["__t"]) \
                    if isinstance(cur, dict) else rand_value(rng, 1)
            except PatchError:
                v = rand_value(rng, 1)
            if rng.random() < 0.3:
                v = rand_value(rng, 1)
            op["value"] = v
        if kind in ("move", "copy"):
            op["from"] = rand_path(rng, cur)
        ops.append(op)
        try:
            cur = apply_patch(cur, [op])
        except PatchError:
            break
    return ops


def test_random_patches_against_reference():
    rng = random.Random(20261202)
    ok = fail = 0
    for i in range(90):
        doc = {k: rand_value(rng, 3) for k in rng.sample(KEYS, rng.randint(2, 6))}
        patch = rand_patch(rng, doc)
        code, _ = expect(doc, patch)
        ok += code == 0
        fail += code == 1
        check(doc, patch, f"random case {i}")
    assert ok >= 10 and fail >= 10
