"""/app/helmvals on charts generated here. Scenario tests state the expected values by hand; the randomized
tests compare against an independent implementation of the instruction (helmvals_ref.py)."""
import json
import os
import random
import subprocess
import sys

import pytest

TOOL = "/app/helmvals"
REF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "helmvals_ref.py")


def run(args, tool=TOOL):
    cmd = ([tool] if tool == TOOL else [sys.executable, tool]) + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd="/")


def values(args):
    r = run(args)
    assert r.returncode == 0, f"{args}: exit {r.returncode}: {r.stderr[-600:]}"
    return json.loads(r.stdout)


def chart(d, values=None, deps=None, subs=None):
    d.mkdir(parents=True, exist_ok=True)
    (d / "Chart.json").write_text(json.dumps({"name": d.name, "version": "0.1.0", "dependencies": deps or []}))
    if values is not None:
        (d / "values.json").write_text(json.dumps(values))
    for name, spec in (subs or {}).items():
        chart(d / "charts" / name, **spec)
    return d


def jfile(path, obj):
    path.write_text(json.dumps(obj))
    return path


def test_example():
    with open("/app/example/expected.json") as f:
        expected = json.load(f)
    got = values(["/app/example/shop", "-f", "/app/example/prod.json", "--set",
                  "image.pullPolicy=Always,ingress.hosts={shop.example.com,www.shop.example.com}",
                  "--set-string", "postgres.auth.password=0123"])
    assert got == expected


def test_set_syntax(tmp_path):
    c = chart(tmp_path / "c")
    cases = [
        (["--set", "a.b=1,c[1]=x"], {"a": {"b": 1}, "c": [None, "x"]}),
        (["--set", "list={1,two,007,-5,,true,null}"], {"list": [1, "two", "007", -5, "", True, None]}),
        (["--set", r"k\.x=a\,b,eq=x=y,esc=a\\b"], {"k.x": "a,b", "eq": "x=y", "esc": "a\\b"}),
        (["--set", "n=-0,m=-12,z=0,f=1.5,lead=012,neg=-"], {"n": "-0", "m": -12, "z": 0, "f": "1.5", "lead": "012", "neg": "-"}),
        (["--set", "a[2].b=1,a[0]=s,m[1][0]=deep"], {"a": ["s", None, {"b": 1}], "m": [None, ["deep"]]}),
        (["--set", "x=1", "--set", "x.y=2", "--set", "e={}"], {"x": {"y": 2}, "e": []}),
        (["--set", "a={x}y,b=2"], {"a": "{x}y", "b": 2}),
        (["--set", "empty="], {"empty": ""}),
    ]
    for args, want in cases:
        got = values([c] + args)
        assert got == want, (args, got)
    # in --set-string braces are not special: the comma splits off "b}", an assignment without "="
    fails = run([c, "--set-string", "l={a,b}"])
    assert fails.returncode == 1 and fails.stdout == ""
    assert values([c, "--set-string", r"n=010,t=true,l={a\,b}"]) == {"n": "010", "t": "true", "l": "{a,b}"}
    for bad in ["noequals", "a..b=1", ".a=1", "a[x]=1", "[0]=1", "a={unterminated", "a[1=2"]:
        r = run([c, "--set", bad])
        assert r.returncode == 1 and r.stdout == "", bad


def test_files_sets_and_nulls(tmp_path):
    c = chart(tmp_path / "app", values={
        "replicas": 1, "ports": [80, 443], "image": {"repo": "r", "tag": "1", "pull": "IfNotPresent"},
        "probe": {"path": "/healthz", "timeout": 3}, "env": {"A": "1", "B": "2"}, "keep": {"nested": {"x": 1}},
    }, deps=[{"name": "db"}], subs={"db": {"values": {"port": 5432, "user": "app", "tls": {"on": True}}}})
    f1 = jfile(tmp_path / "f1.json", {"replicas": 3, "ports": [8080], "image": {"tag": "2"}, "env": {"A": None},
                                      "db": {"user": "ro"}})
    f2 = jfile(tmp_path / "f2.json", {"image": {"pull": "Always"}, "ports": [9090, 9091], "probe": None,
                                      "db": {"tls": None}, "keep": {"nested": None, "other": [None, {"k": None}]}})
    got = values([c, "-f", f1, "--set", "image.tag=3,db.port=null", "-f", f2])
    assert got == {
        "replicas": 3, "ports": [9090, 9091], "image": {"repo": "r", "tag": 3, "pull": "Always"},
        "env": {"B": "2"}, "keep": {"other": [None, {"k": None}]},
        "db": {"user": "ro"},
    }
    # a later file replaces lists and scalars but merges objects
    got = values([c, "-f", f2, "-f", f1])
    assert got["ports"] == [8080] and got["image"] == {"repo": "r", "tag": "2", "pull": "Always"}
    assert "probe" not in got and got["db"] == {"port": 5432, "user": "ro"}


def test_conditions_tags_and_aliases(tmp_path):
    sub = {"values": {"enabled": "yes", "size": 1}}
    deps = [
        {"name": "s", "alias": "one", "condition": "one.enabled"},                 # string, not a boolean: falls through
        {"name": "s", "alias": "two", "condition": "nope.x, two.on ,flags.two", "tags": ["t1"]},
        {"name": "s", "alias": "three", "tags": ["t2", "t3"]},
        {"name": "s", "alias": "four", "tags": ["t4"]},
        {"name": "s", "alias": "five", "condition": "flags.five", "tags": ["t1"]},
    ]
    c = chart(tmp_path / "p", values={"one": {"x": 1}, "two": {"on": "true"}, "flags": {"two": False, "five": True},
                                      "four": {"given": 1}, "tags": {"t1": True, "t2": False, "t3": "no"}},
              deps=deps, subs={"s": sub})
    got = values([c])
    assert got["one"] == {"x": 1, "enabled": "yes", "size": 1}
    assert got["two"] == {"on": "true"}                       # flags.two (false) decides before the tag
    assert "three" not in got                                 # t2 false, t3 not a boolean: disabled
    assert got["four"] == {"given": 1, "enabled": "yes", "size": 1}   # t4 undefined: enabled
    assert got["five"] == {"enabled": "yes", "size": 1}
    got = values([c, "--set", "tags.t3=true,flags.five=false,two.on=true", "--set", "four=7"])
    assert got["three"] == {"enabled": "yes", "size": 1}
    assert got["two"] == {"on": True, "enabled": "yes", "size": 1}
    assert "five" not in got
    assert got["four"] == {"enabled": "yes", "size": 1}       # a non-object given value is replaced
    # a disabled dependency keeps exactly what was given for it
    got = values([c, "--set", "one.enabled=false,one.size=null"])
    assert got["one"] == {"x": 1, "enabled": False}


def test_globals_and_nested_subcharts(tmp_path):
    leaf = {"values": {"global": {"region": "eu", "tier": "leaf"}, "port": 9000, "enabled": True}}
    mid = {"values": {"global": {"tier": "mid", "mid": 1}, "leafy": {"port": 9100}, "metrics": {"enabled": True}},
           "deps": [{"name": "leaf", "alias": "leafy", "condition": "metrics.enabled"}], "subs": {"leaf": leaf}}
    c = chart(tmp_path / "top", values={"global": {"tier": "top", "owner": "ops"}, "mid": {"global": {"mid": 2, "owner": "mid-owner"}}},
              deps=[{"name": "mid"}], subs={"mid": mid})
    got = values([c])
    assert got["global"] == {"tier": "top", "owner": "ops"}
    assert got["mid"]["global"] == {"tier": "top", "owner": "ops", "mid": 2}
    assert got["mid"]["leafy"] == {"port": 9100, "enabled": True,
                                   "global": {"tier": "top", "owner": "ops", "mid": 2, "region": "eu"}}
    got = values([c, "--set", "global.owner=null,mid.metrics.enabled=false,global.tier=cli"])
    assert got["global"] == {"tier": "cli"}
    assert got["mid"]["global"] == {"tier": "cli", "mid": 2}
    assert got["mid"]["leafy"] == {"port": 9100}
    # a null for a subchart default removes it there too
    got = values([c, "--set", "mid.leafy.port=null,mid.leafy.global.region=null"])
    assert got["mid"]["leafy"] == {"enabled": True, "global": {"tier": "top", "owner": "ops", "mid": 2}}


def test_errors(tmp_path):
    c = chart(tmp_path / "c", values={"a": 1}, deps=[{"name": "ghost", "condition": "ghost.on"}])
    assert values([c, "--set", "ghost.on=false"]) == {"a": 1, "ghost": {"on": False}}
    r = run([c])
    assert r.returncode == 1 and r.stdout == ""
    ok = chart(tmp_path / "ok", values={"a": 1})
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "broken.json").write_text("{")
    for args in ([ok, "-f", tmp_path / "list.json"], [ok, "-f", tmp_path / "broken.json"],
                 [ok, "-f", tmp_path / "missing.json"], [tmp_path / "nochart"], [ok, "--bogus"], [ok, "--set"], [ok, ok]):
        r = run(args)
        assert r.returncode == 1 and r.stdout == "", args
    bad = chart(tmp_path / "bad")
    (bad / "values.json").write_text('"scalar"')
    assert run([bad]).returncode == 1


# ---------------------------------------------------------------- randomized comparison

KEYS = ["a", "b", "c", "port", "image", "tags", "global", "enabled", "list"]


def rand_value(rng, depth):
    r = rng.random()
    if depth < 3 and r < 0.4:
        return {rng.choice(KEYS): rand_value(rng, depth + 1) for _ in range(rng.randint(1, 3))}
    if r < 0.5:
        return [rng.randint(0, 9) for _ in range(rng.randint(0, 3))]
    if r < 0.6:
        return None
    if r < 0.75:
        return rng.choice([True, False])
    if r < 0.88:
        return rng.randint(-3, 30)
    return rng.choice(["x", "y", "007", "true"])


def rand_path(rng):
    segs = []
    for _ in range(rng.randint(1, 3)):
        s = rng.choice(KEYS)
        if rng.random() < 0.15:
            s += f"[{rng.randint(0, 3)}]"
        segs.append(s)
    return ".".join(segs)


def rand_set(rng):
    parts = []
    for _ in range(rng.randint(1, 3)):
        v = rng.choice(["1", "0", "-4", "true", "false", "null", "x", "012", "{1,a,null}", "{}", r"a\,b", "q=r"])
        parts.append(f"{rand_path(rng)}={v}")
    return ",".join(parts)


def rand_chart(rng, d, depth, names):
    vals = {k: rand_value(rng, 1) for k in rng.sample(KEYS, rng.randint(2, 5))}
    deps, subs = [], {}
    if depth < 2:
        for k in range(rng.randint(1, 2)):
            nm = f"sub{depth}{k}"
            dep = {"name": nm}
            if rng.random() < 0.4:
                dep["alias"] = rng.choice(["a", "b", "c", "x" + nm])
            if rng.random() < 0.5:
                dep["condition"] = rng.choice(["enabled", "a.enabled", f"{dep.get('alias', nm)}.enabled", "b, c.enabled"])
            if rng.random() < 0.4:
                dep["tags"] = rng.sample(["a", "b", "c", "enabled"], 2)
            deps.append(dep)
            sub_dir = d / "charts" / nm
            rand_chart(rng, sub_dir, depth + 1, names)
    d.mkdir(parents=True, exist_ok=True)
    (d / "Chart.json").write_text(json.dumps({"name": d.name, "dependencies": deps}))
    (d / "values.json").write_text(json.dumps(vals))


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8, 13, 21, 34, 55, 89])
def test_random_charts_match_rules(tmp_path, seed):
    rng = random.Random(seed * 3571)
    c = tmp_path / "top"
    rand_chart(rng, c, 0, [])
    for k in range(5):
        args = [c]
        for j in range(rng.randint(0, 2)):
            f = jfile(tmp_path / f"f{k}{j}.json", {kk: rand_value(rng, 1) for kk in rng.sample(KEYS, 3)})
            args += ["-f", f]
        for j in range(rng.randint(0, 2)):
            args += [rng.choice(["--set", "--set", "--set-string"]), rand_set(rng)]
        a, b = run(args), run(args, tool=REF)
        assert a.returncode == b.returncode, (args, a.stderr, b.stderr)
        if b.returncode == 0:
            assert json.loads(a.stdout) == json.loads(b.stdout), f"{[str(x) for x in args]}"
