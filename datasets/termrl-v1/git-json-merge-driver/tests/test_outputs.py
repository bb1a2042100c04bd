"""The JSON merge driver, exercised through `git merge` in repositories created here (no .gitattributes of
their own) on documents and edits generated at test time, and called directly for the edge cases."""
import copy
import json
import os
import random
import shutil
import string
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
DRIVER = "/app/jsonmerge"
MARK = "<<<<<<< conflict"
GONE = object()
os.environ.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.test", GIT_COMMITTER_NAME="t",
                  GIT_COMMITTER_EMAIL="t@example.test")


def word(n=None):
    return "".join(RNG.choice(string.ascii_lowercase) for _ in range(n or RNG.randint(3, 8)))


def git(repo, *args, check=True):
    r = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=60)
    if check:
        assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def dump(doc):
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# ---- the rules, written out independently of any solution ----
def canon(v):
    return json.dumps(v, sort_keys=True)


def eq(x, y):
    return (x is GONE and y is GONE) or (x is not GONE and y is not GONE and canon(x) == canon(y))


def id_array(v):
    return isinstance(v, list) and all(isinstance(e, dict) and isinstance(e.get("id"), str) for e in v) \
        and len(v) == len({e["id"] for e in v})


def merge(o, a, b):
    if eq(a, b):
        return a
    if eq(a, o):
        return b
    if eq(b, o):
        return a
    if isinstance(a, dict) and isinstance(b, dict):
        o = o if isinstance(o, dict) else {}
        keys = list(a) + [k for k in b if k not in a]
        out = {k: merge(o.get(k, GONE), a.get(k, GONE), b.get(k, GONE)) for k in keys}
        return {k: v for k, v in out.items() if v is not GONE}
    if id_array(a) and id_array(b):
        o = o if id_array(o) else []
        idx = [{e["id"]: e for e in x} for x in (o, a, b)]
        ids = [e["id"] for e in a] + [e["id"] for e in b if e["id"] not in idx[1]]
        out = [merge(idx[0].get(i, GONE), idx[1].get(i, GONE), idx[2].get(i, GONE)) for i in ids]
        return [v for v in out if v is not GONE]
    return {MARK: {k: v for k, v in (("base", o), ("ours", a), ("theirs", b)) if v is not GONE}}


def conflicts(v):
    if isinstance(v, dict):
        return (1 if MARK in v and len(v) == 1 else 0) + sum(conflicts(x) for x in v.values())
    if isinstance(v, list):
        return sum(conflicts(x) for x in v)
    return 0


# ---- random documents and edits that do not overlap ----
def scalar():
    return RNG.choice([lambda: RNG.randint(-50, 5000), lambda: word(), lambda: RNG.random() < 0.5,
                       lambda: [word() for _ in range(RNG.randint(1, 3))]])()


def element(prefix=""):
    f1 = word()
    return {"id": prefix + word(), f1: scalar(), f1 + "_" + word(): scalar()}


def document(depth=0):
    doc = {}
    for _ in range(RNG.randint(4, 7)):
        kind = RNG.random()
        if kind < 0.2 and depth < 2:
            doc[word()] = document(depth + 1)
        elif kind < 0.35:
            doc[word()] = [element() for _ in range(RNG.randint(2, 4))]
        else:
            doc[word()] = scalar()
    return doc


def edit_pair(base, depth=0):
    """Edits every node at most from one side: returns (ours, theirs)."""
    ours, theirs = {}, {}
    for k, v in base.items():
        owner = RNG.choice(["ours", "theirs", "both", "none"])
        if owner == "both" and isinstance(v, dict):
            ours[k], theirs[k] = edit_pair(v, depth + 1)
            continue
        if owner == "both" and id_array(v) and v:
            ours[k], theirs[k] = edit_elements(v)
            continue
        new = GONE if RNG.random() < 0.25 else (scalar() if RNG.random() < 0.7 else document(2))
        ours[k] = new if owner == "ours" else copy.deepcopy(v)
        theirs[k] = new if owner == "theirs" else copy.deepcopy(v)
    for side, tag in ((ours, "o"), (theirs, "t")):
        if RNG.random() < 0.6:
            side[f"{tag}_{word()}"] = scalar()
    return ({k: v for k, v in ours.items() if v is not GONE}, {k: v for k, v in theirs.items() if v is not GONE})


def edit_elements(base):
    ours, theirs = [], []
    for e in base:
        owner = RNG.choice(["ours", "theirs", "both", "none"])
        if owner == "both":
            # each side changes a different field of the same element
            fields = [f for f in e if f != "id"]
            oe, te = copy.deepcopy(e), copy.deepcopy(e)
            oe[fields[0]] = scalar()
            te[fields[1]] = f"theirs-{word()}"
            ours.append(oe)
            theirs.append(te)
        elif owner == "none":
            ours.append(copy.deepcopy(e))
            theirs.append(copy.deepcopy(e))
        else:
            changed = None if RNG.random() < 0.4 else {**e, word(): scalar()}
            for side, name in ((ours, "ours"), (theirs, "theirs")):
                if owner == name:
                    if changed is not None:
                        side.append(changed)
                else:
                    side.append(copy.deepcopy(e))
    ours.append(element("o-"))
    theirs.append(element("t-"))
    return ours, theirs


def repo_with(tmp, base: dict, ours: dict, theirs: dict):
    """main has `ours` on top of `base`, branch other has `theirs`; returns (repo, merge result)."""
    repo = tmp / f"r{RNG.randrange(10**6)}"
    git(tmp, "init", "-q", "-b", "main", str(repo))
    for name, text in base.items():
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "other")
    for name, text in theirs.items():
        (repo / name).write_text(text)
    git(repo, "commit", "-q", "--allow-empty", "-am", "theirs")
    git(repo, "checkout", "-q", "main")
    for name, text in ours.items():
        (repo / name).write_text(text)
    git(repo, "commit", "-q", "--allow-empty", "-am", "ours")
    return repo, git(repo, "merge", "--no-edit", "other", check=False)


def same_order(x, y):
    return json.dumps(x) == json.dumps(y)


def test_demo_feature_merges_cleanly(tmp_path):
    assert git("/app/demo", "log", "-1", "--format=%s", "main").stdout.strip() == "main: rename, more memory, api v2"
    repo = tmp_path / "demo"
    git(tmp_path, "clone", "-q", "/app/demo", str(repo))
    git(repo, "branch", "-q", "feature", "origin/feature")
    r = git(repo, "merge", "--no-edit", "feature", check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    got = json.loads((repo / "services.json").read_text())
    want = {"name": "edge-eu", "replicas": 3, "limits": {"cpu": "500m", "memory": "512Mi"},
            "routes": [{"id": "api", "path": "/api/v2", "timeout": 45}, {"id": "web", "path": "/", "timeout": 10},
                       {"id": "admin", "path": "/admin", "timeout": 5}]}
    assert same_order(got, want), got


@pytest.mark.parametrize("round_", range(4))
def test_random_non_overlapping_edits_merge_cleanly(tmp_path, round_):
    base = document()
    ours, theirs = edit_pair(base)
    if RNG.random() < 0.5:  # theirs rewrites the file with its keys in another order
        theirs = dict(RNG.sample(list(theirs.items()), len(theirs)))
    want = merge(base, ours, theirs)
    assert conflicts(want) == 0
    other = {"plain.txt": "alpha\nbeta\ngamma\n"}
    repo, r = repo_with(tmp_path, {"conf.json": dump(base), **other}, {"conf.json": dump(ours)},
                        {"conf.json": dump(theirs)})
    assert r.returncode == 0, r.stdout + r.stderr
    got = json.loads((repo / "conf.json").read_text())
    assert got == want
    assert same_order(got, want), "keys or elements are not in the required order"
    assert git(repo, "status", "--porcelain").stdout == ""


def test_conflicts_are_recorded_in_place(tmp_path):
    k_num, k_del, k_list, k_arr, k_nest, k_ok = (word() + str(i) for i in range(6))
    eid = word()
    base = {k_num: 10, k_del: {"x": 1}, k_list: ["a", "b"], k_ok: "same",
            k_arr: [{"id": eid, "port": 80, "tls": False}, {"id": "keep", "port": 1}], k_nest: {"deep": {"v": 1}}}
    ours = copy.deepcopy(base)
    theirs = copy.deepcopy(base)
    ours[k_num], theirs[k_num] = 11, 12
    del ours[k_del]
    theirs[k_del]["x"] = 2
    ours[k_list], theirs[k_list] = ["a", "b", "c"], ["b"]
    ours[k_arr][0]["port"], theirs[k_arr][0]["port"] = 8080, 8443
    theirs[k_arr][0]["tls"] = True
    theirs[k_nest]["deep"]["w"] = 2
    ours[k_ok] = theirs[k_ok] = "changed-alike"
    repo, r = repo_with(tmp_path, {"a.json": dump(base), "b.json": dump({"n": 1, "m": 1})},
                        {"a.json": dump(ours), "b.json": dump({"n": 2, "m": 1})},
                        {"a.json": dump(theirs), "b.json": dump({"n": 1, "m": 3})})
    assert r.returncode != 0
    unmerged = git(repo, "diff", "--name-only", "--diff-filter=U").stdout.split()
    assert unmerged == ["a.json"], unmerged
    assert json.loads((repo / "b.json").read_text()) == {"n": 2, "m": 3}
    got = json.loads((repo / "a.json").read_text())
    assert got[k_num] == {MARK: {"base": 10, "ours": 11, "theirs": 12}}
    assert got[k_del] == {MARK: {"base": {"x": 1}, "theirs": {"x": 2}}}
    assert got[k_list] == {MARK: {"base": ["a", "b"], "ours": ["a", "b", "c"], "theirs": ["b"]}}
    assert got[k_arr] == [{"id": eid, "port": {MARK: {"base": 80, "ours": 8080, "theirs": 8443}}, "tls": True},
                          {"id": "keep", "port": 1}]
    assert got[k_nest] == {"deep": {"v": 1, "w": 2}} and got[k_ok] == "changed-alike"
    assert list(got) == list(ours) + [k_del], "a conflict record sits where the value would be"


def run_driver(tmp_path, o, a, b):
    paths = []
    for name, text in (("O", o), ("A", a), ("B", b)):
        p = tmp_path / f"{name}-{word()}"
        p.write_text(text)
        paths.append(str(p))
    r = subprocess.run([DRIVER, *paths, "some/file.json"], capture_output=True, text=True, timeout=60)
    return r.returncode, Path(paths[1]).read_text()


def test_driver_edge_cases(tmp_path):
    k = word()
    # added on both branches: empty base, the two sides merge against {}
    rc, out = run_driver(tmp_path, "", dump({"a": 1, k: "x"}), dump({k: "x", "b": [1, 2]}))
    assert rc == 0 and out == dump({"a": 1, k: "x", "b": [1, 2]})
    rc, out = run_driver(tmp_path, "", dump({k: 1}), dump({k: 2}))
    assert rc == 1 and json.loads(out) == {k: {MARK: {"ours": 1, "theirs": 2}}}
    # the whole document conflicts
    rc, out = run_driver(tmp_path, dump({"v": 1}), dump([1, 2]), dump({"v": 2}))
    assert rc == 1 and json.loads(out) == {MARK: {"base": {"v": 1}, "ours": [1, 2], "theirs": {"v": 2}}}
    # base of another type under a key: both sides objects merge against {}
    rc, out = run_driver(tmp_path, dump({k: "flat"}), dump({k: {"p": 1, "q": 1}}), dump({k: {"q": 1, "r": 2}}))
    assert rc == 0 and out == dump({k: {"p": 1, "q": 1, "r": 2}})
    # deleted on both sides, identical change on both, exact output text with non-ASCII kept as is
    text = {"gone": 1, "name": "Zürich", "t": 1}
    rc, out = run_driver(tmp_path, dump(text), dump({"name": "Zürich-Ost", "t": 2}), dump({"t": 1, "name": "Zürich-Ost"}))
    assert rc == 0 and out == dump({"name": "Zürich-Ost", "t": 2})
    # an id-array against a plain array is a conflict, not an element merge
    rc, out = run_driver(tmp_path, dump({"l": [{"id": "a"}]}), dump({"l": [{"id": "a"}, {"id": "b"}]}),
                         dump({"l": [{"id": "a"}, "c"]}))
    assert rc == 1 and json.loads(out)["l"][MARK]["theirs"] == [{"id": "a"}, "c"]


def test_invalid_json_falls_back_to_text_merge(tmp_path):
    lines = [f'  "{word()}{i}": {i},' for i in range(12)]
    base = "{\n" + "\n".join(lines) + '\n  "end": true\n}\n'
    ours = base.replace(lines[1], lines[1].replace(": 1,", ": 100,"))
    theirs = base.replace(lines[9], lines[9] + "  // tuned by hand")
    expect = tmp_path / "expect"
    expect.write_text(ours)
    (tmp_path / "b").write_text(base)
    (tmp_path / "t").write_text(theirs)
    subprocess.run(["git", "merge-file", str(expect), str(tmp_path / "b"), str(tmp_path / "t")], check=True)
    near = {"a": 1, "b": 2, "c": 3}
    repo, r = repo_with(tmp_path, {"x.json": base, "y.json": dump(near)},
                        {"x.json": ours, "y.json": dump({**near, "a": 10})},
                        {"x.json": theirs, "y.json": dump({**near, "b": 20})})
    assert r.returncode == 0, r.stdout + r.stderr
    assert (repo / "x.json").read_text() == expect.read_text()
    assert json.loads((repo / "y.json").read_text()) == {"a": 10, "b": 20, "c": 3}
    clash = base.replace(lines[9], lines[9] + " // theirs")
    repo, r = repo_with(tmp_path, {"x.json": base}, {"x.json": base.replace(lines[9], lines[9] + " // ours")},
                        {"x.json": clash})
    assert r.returncode != 0
    text = (repo / "x.json").read_text()
    assert "<<<<<<<" in text and "// ours" in text and "// theirs" in text


def test_other_files_keep_the_text_merge(tmp_path):
    doc = {"a": 1, "b": 2}
    repo, r = repo_with(tmp_path, {"notes.txt": "one\ntwo\n", "settings.json.bak": dump(doc), "s.json": dump(doc)},
                        {"notes.txt": "one\nTWO\n", "settings.json.bak": dump({"a": 5, "b": 2}),
                         "s.json": dump({"a": 5, "b": 2})},
                        {"notes.txt": "one\n2\n", "settings.json.bak": dump({"a": 1, "b": 6}),
                         "s.json": dump({"a": 1, "b": 6})})
    assert r.returncode != 0
    assert sorted(git(repo, "diff", "--name-only", "--diff-filter=U").stdout.split()) == ["notes.txt",
                                                                                          "settings.json.bak"]
    assert "<<<<<<<" in (repo / "settings.json.bak").read_text()
    assert json.loads((repo / "s.json").read_text()) == {"a": 5, "b": 6}
