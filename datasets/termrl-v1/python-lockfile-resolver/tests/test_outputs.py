"""/app/lock on package indexes generated here. The expected lock is found by enumerating every
assignment of versions (best first, in the order the instruction defines) and taking the first one
that satisfies every rule; the rules are re-implemented here from the instruction."""
import itertools
import json
import os
import random
import re
import subprocess

import functools

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

RNG = random.Random(os.urandom(8))
TOOL = "/app/lock"


def norm(n):
    return re.sub(r"[-_.]+", "-", n).lower()


# ---- markers as trees: ("cmp", var, op, value) | ("and"/"or", a, b); rendered to text for the index ----
def render(m, top=True):
    if m[0] == "cmp":
        _, var, op, val = m
        return f'{var} {op} "{val}"' if RNG.random() < 0.8 else f'"{val}" {flip(op)} {var}'
    s = f"{render(m[1], False)} {m[0]} {render(m[2], False)}"
    return s if top else f"({s})"


def flip(op):
    return {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}[op]


def mev(m, env):
    if m[0] == "and":
        return mev(m[1], env) and mev(m[2], env)
    if m[0] == "or":
        return mev(m[1], env) or mev(m[2], env)
    _, var, op, val = m
    a, b = env[var], val
    if var == "python_version":
        a, b = Version(a), Version(b)
    if var == "extra":
        a, b = norm(a), norm(b)
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


@functools.lru_cache(maxsize=None)
def spec_ok(spec, v):
    return SpecifierSet(spec).contains(v, prereleases=True)


class R:
    """a requirement: name (display form), extras, specifier text, marker tree"""

    def __init__(self, name, spec="", extras=(), marker=None):
        self.name, self.key, self.spec, self.extras, self.marker = name, norm(name), spec, tuple(extras), marker
        self.text = None

    def render(self):
        if self.text is None:
            t = self.name + (f"[{','.join(self.extras)}]" if self.extras else "") + self.spec
            if self.marker is not None:
                t += "; " + render(self.marker)
            self.text = t
        return self.text

    def active(self, env, extras=()):
        return self.marker is None or any(mev(self.marker, {**env, "extra": e}) for e in ("",) + tuple(extras))

    def ok(self, v):
        return spec_ok(self.spec, v)

    def names_pre(self):
        return any(Version(s.version.replace(".*", "")).is_prerelease for s in SpecifierSet(self.spec))


class Universe:
    def __init__(self):
        self.p = {}  # key -> {"name": display, "rel": {Version: {"text", "req": [R], "extras": set, "rp": str}}}

    def add(self, name, ver, req=(), extras=(), rp=""):
        e = self.p.setdefault(norm(name), {"name": name, "rel": {}})
        e["rel"][Version(ver)] = {"text": ver, "req": list(req), "extras": {norm(x) for x in extras}, "rp": rp}

    def write(self, d):
        d.mkdir()
        for i, (k, e) in enumerate(sorted(self.p.items())):
            rels = {}
            for v, r in e["rel"].items():
                info = {"requires": [x.render() for x in r["req"]]}
                if r["extras"] or RNG.random() < 0.3:
                    info["extras"] = sorted(r["extras"])
                if r["rp"]:
                    info["requires_python"] = r["rp"]
                rels[r["text"]] = info
            (d / f"p{i:02d}-{RNG.randrange(10**6)}.json").write_text(json.dumps({"name": e["name"], "releases": rels}, indent=1))

    # ---- the rules ----
    def valid(self, lock, roots, cons, env, pre):
        for r in roots:
            if r.key not in lock:
                return False
        extras = {k: set() for k in lock}
        active = {id(r): r for r in roots}
        reached = set()
        while True:
            before = (len(active), len(reached), sum(len(x) for x in extras.values()))
            for r in list(active.values()):
                if r.key not in lock:
                    return False
                reached.add(r.key)
                extras[r.key].update(norm(x) for x in r.extras)
            for k in reached:
                for r in self.p[k]["rel"][lock[k]]["req"]:
                    if r.active(env, extras[k]):
                        active[id(r)] = r
            if before == (len(active), len(reached), sum(len(x) for x in extras.values())):
                break
        if reached != set(lock):
            return False
        py = Version(env["python_version"])
        for k, v in lock.items():
            rel = self.p[k]["rel"][v]
            if rel["rp"] and not spec_ok(rel["rp"], py):
                return False
        allr = list(active.values()) + [c for c in cons if c.key in lock]
        for r in allr:
            v = lock[r.key]
            if not r.ok(v):
                return False
        for r in active.values():
            if not {norm(x) for x in r.extras} <= self.p[r.key]["rel"][lock[r.key]]["extras"]:
                return False
        if not pre:
            for k, v in lock.items():
                if v.is_prerelease and not any(r.key == k and r.names_pre() for r in allr):
                    return False
        return True

    def best(self, roots, cons, env, pre):
        roots = [r for r in roots if r.active(env)]
        cons = [c for c in cons if c.active(env)]
        closure, todo = set(), [r.key for r in roots]
        while todo:
            k = todo.pop()
            if k in closure:
                continue
            closure.add(k)
            for rel in self.p.get(k, {"rel": {}})["rel"].values():
                todo += [r.key for r in rel["req"]]
        if any(k not in self.p for k in closure):
            closure = {k for k in closure if k in self.p}
        rk = {r.key for r in roots}
        keys = sorted(closure & rk) + sorted(closure - rk)
        choices = [sorted(self.p[k]["rel"], reverse=True) + [None] for k in keys]
        for combo in itertools.product(*choices):
            lock = {k: v for k, v in zip(keys, combo) if v is not None}
            if self.valid(lock, roots, cons, env, pre):
                return [f"{k}=={self.p[k]['rel'][lock[k]]['text']}" for k in sorted(lock)]
        return None


def run_lock(tmp_path, u, roots, cons=(), python="3.11", platform="linux", pre=False, via_file=False):
    d = tmp_path / f"idx{RNG.randrange(10**9)}"
    u.write(d)
    args = [TOOL, "--index", str(d), "--python", python, "--platform", platform]
    if pre:
        args.append("--pre")
    if cons:
        cf = d.parent / f"c{RNG.randrange(10**9)}.txt"
        cf.write_text("# constraints\n" + "\n".join(c.render() for c in cons) + "\n")
        args += ["-c", str(cf)]
    if via_file:
        rf = d.parent / f"r{RNG.randrange(10**9)}.txt"
        rf.write_text("\n".join(r.render() + ("  # pinned by ops" if RNG.random() < 0.3 else "") for r in roots) + "\n\n")
        args += ["-r", str(rf)]
    else:
        args += [r.render() for r in roots]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    env = {"python_version": python, "sys_platform": platform}
    exp = u.best(roots, list(cons), env, pre)
    ctx = f"\nargs: {args[5:]}\nindex: {json.dumps({k: {str(v): [x.render() for x in r['req']] for v, r in e['rel'].items()} for k, e in u.p.items()})}"
    if exp is None:
        assert p.returncode == 1, f"expected exit 1 (no solution), got {p.returncode}: {p.stdout}{ctx}"
        assert "error: no solution" in p.stderr, p.stderr + ctx
    else:
        assert p.returncode == 0, f"exit {p.returncode}: {p.stderr}{ctx}"
        assert p.stdout.split() == exp, f"got {p.stdout.split()}, expected {exp}{ctx}"
    return exp


def word():
    return "".join(RNG.choice("bcdfgklmnprstvz") + RNG.choice("aeiou") for _ in range(3))


def styled(base):
    """the same project under another spelling"""
    parts = base.split("-")
    sep = RNG.choice(["-", "_", ".", "__"])
    out = sep.join(parts)
    return out.upper() if RNG.random() < 0.3 else (out.capitalize() if RNG.random() < 0.5 else out)


def test_backtracking_to_an_older_release(tmp_path):
    for _ in range(3):
        a, b, c = sorted(f"{word()}-{i}" for i in range(3))
        u = Universe()
        # a's newest releases need b < 2, but c (and the root) needs b >= 2
        u.add(a, "3.0", [R(styled(b), "<2")])
        u.add(a, "2.5", [R(styled(b), "<2.0")])
        u.add(a, "2.1", [R(styled(b), ">=1.5")])
        u.add(b, "1.9")
        u.add(b, "2.0")
        u.add(b, "2.2", [R(styled(c), ">=1")])
        u.add(c, "1.0")
        u.add(c, "0.5")
        exp = run_lock(tmp_path, u, [R(styled(a)), R(styled(b), ">=2")])
        assert exp[0].endswith("==2.1"), exp


def test_markers_select_dependencies(tmp_path):
    for python, platform in [("3.8", "linux"), ("3.12", "win32"), ("3.10", "darwin")]:
        a, b, c, d = sorted(f"{word()}{i}" for i in range(4))
        u = Universe()
        u.add(a, "1.0", [R(b, ">=1", marker=("cmp", "python_version", "<", "3.10")),
                         R(c, marker=("or", ("cmp", "sys_platform", "==", "win32"), ("cmp", "python_version", ">=", "3.12"))),
                         R(d, "==2.*", marker=("and", ("cmp", "sys_platform", "!=", "win32"), ("cmp", "python_version", ">", "3.9")))])
        for x in (b, c):
            u.add(x, "1.0")
            u.add(x, "1.1")
        u.add(d, "2.3")
        u.add(d, "3.0")
        u.add(d, "2.0", rp=">=3.11")
        run_lock(tmp_path, u, [R(a)], python=python, platform=platform)


def test_extras(tmp_path):
    for _ in range(3):
        a, b, c, d = sorted(f"{word()}{i}" for i in range(4))
        u = Universe()
        # the newest a does not offer the extra; the extra pulls b, whose own extra pulls c
        u.add(a, "2.0", [R(d)], extras=[])
        u.add(a, "1.5", [R(styled(b), "", ["Fast"], marker=("cmp", "extra", "==", "CLI")), R(d, "<2")],
              extras=["cli"])
        u.add(a, "1.0", [R(b, marker=("cmp", "extra", "==", "cli"))], extras=["cli"])
        u.add(b, "1.0", [R(c, ">=1", marker=("cmp", "extra", "==", "fast"))], extras=["fast"])
        u.add(b, "0.9")
        u.add(c, "1.2")
        u.add(c, "0.8")
        u.add(d, "1.0")
        u.add(d, "2.0")
        exp = run_lock(tmp_path, u, [R(a, ">=1", ["cli"])])
        assert len(exp) == 4, exp
        exp = run_lock(tmp_path, u, [R(a)])
        assert exp == [f"{norm(a)}==2.0", f"{norm(d)}==2.0"], exp


def test_prereleases(tmp_path):
    a, b = sorted(word() for _ in range(2))
    u = Universe()
    u.add(a, "1.0", [R(b, ">=1")])
    u.add(a, "2.0b1", [R(b, ">=1")])
    u.add(b, "1.0")
    u.add(b, "1.1.dev2")
    u.add(b, "1.1rc1")
    assert run_lock(tmp_path, u, [R(a)]) == [f"{a}==1.0", f"{b}==1.0"]
    assert run_lock(tmp_path, u, [R(a)], pre=True) == [f"{a}==2.0b1", f"{b}==1.1rc1"]
    assert run_lock(tmp_path, u, [R(a, ">=2.0a1")]) == [f"{a}==2.0b1", f"{b}==1.0"]
    assert run_lock(tmp_path, u, [R(a), R(b, ">=1.1.dev1")]) == [f"{a}==1.0", f"{b}==1.1rc1"]
    # a root's newest release wins over keeping a dependency that sorts first
    c = "aa" + a
    u.add(a, "2.1", [R(b, ">=1")])
    u.add(a, "2.0", [R(b, ">=1"), R(c)])
    u.add(c, "1.0")
    assert run_lock(tmp_path, u, [R(a)]) == [f"{a}==2.1", f"{b}==1.0"]


def test_constraints_and_requirements_file(tmp_path):
    for _ in range(3):
        a, b, c = sorted(word() for _ in range(3))
        u = Universe()
        for v in ("1.0", "1.4", "2.0", "2.2"):
            u.add(a, v, [R(b, ">=" + v[0])])
        for v in ("1.0", "1.5", "2.0", "3.0"):
            u.add(b, v)
        u.add(c, "1.0")
        # the constraint on c must not add c; the one on b holds a back
        run_lock(tmp_path, u, [R(a)], cons=[R(b, "<2"), R(c, "==1.0"), R(a, "!=1.4", marker=("cmp", "sys_platform", "==", "linux"))],
                 via_file=True)


def test_no_solution(tmp_path):
    a, b = sorted(word() for _ in range(2))
    u = Universe()
    u.add(a, "1.0", [R(b, ">=2")])
    u.add(a, "1.1", [R(b, "~=2.1")])
    u.add(b, "1.0")
    u.add(b, "2.0")
    assert run_lock(tmp_path, u, [R(a), R(b, "<2")]) is None
    assert run_lock(tmp_path, u, [R(word() + "x")]) is None


def random_universe():
    names = sorted({word() for _ in range(RNG.randint(3, 6))})
    u = Universe()
    pool = ["0.9", "1.0", "1.0.post1", "1.1", "1.2.1", "2.0", "2.0rc1", "2.1", "3.0a2", "3.0", "1!0.5"]
    for n in names:
        for v in RNG.sample(pool, RNG.randint(1, 4)):
            reqs = []
            for dep in RNG.sample(names, RNG.randint(0, 2)):
                if dep == n:
                    continue
                spec = RNG.choice(["", ">=1.0", "<2", "!=1.1", "~=1.0", "==1.*", ">0.9,<3", ">=2.0rc1", "==2.0", "<=1.2.1"])
                marker = RNG.choice([None, None, None, ("cmp", "python_version", ">=", "3.10"),
                                     ("cmp", "sys_platform", "==", "win32"), ("cmp", "extra", "==", "x")])
                reqs.append(R(styled(dep), spec, ["x"] if RNG.random() < 0.15 else [], marker))
            u.add(n, v, reqs, extras=["x"] if RNG.random() < 0.5 else [], rp=RNG.choice(["", "", "", ">=3.10", "<3.12"]))
    roots = [R(styled(n), RNG.choice(["", "", ">=1", "<3", "!=2.0"])) for n in RNG.sample(names, RNG.randint(1, 2))]
    return u, roots


def test_random_indexes(tmp_path):
    solved = failed = 0
    for _ in range(30):
        u, roots = random_universe()
        cons = [R(RNG.choice(list(u.p)), RNG.choice(["<2", ">=1.0", "!=3.0"]))] if RNG.random() < 0.3 else []
        exp = run_lock(tmp_path, u, roots, cons, python=RNG.choice(["3.9", "3.11", "3.12"]),
                       platform=RNG.choice(["linux", "win32"]), pre=RNG.random() < 0.3)
        solved += exp is not None
        failed += exp is None
    assert solved >= 5
