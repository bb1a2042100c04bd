#!/bin/bash
# Reference: exhaustive best-first search over the projects (roots, then the rest, by name) (newest first, absent last),
# pruning on root and plain requirements; full check (extras fixpoint, reachability, pre-release rule) at the leaves.
set -euo pipefail
cat > /app/lock <<'PY'
#!/usr/bin/env python3
"""lock: resolve Python requirements against a local JSON index into the best pinned set."""
import argparse
import glob
import json
import re
import sys

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version


def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


TOK = re.compile(r"\s*(\(|\)|==|!=|<=|>=|<|>|\"[^\"]*\"|'[^']*'|[A-Za-z_][A-Za-z0-9_]*)")


def parse_marker(text):
    toks, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOK.match(text, pos)
        if not m:
            raise ValueError(f"bad marker: {text!r}")
        toks.append(m.group(1))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    i = 0

    def peek():
        return toks[i] if i < len(toks) else None

    def take():
        nonlocal i
        i += 1
        return toks[i - 1]

    def atom():
        if peek() == "(":
            take()
            e = orx()
            take()
            return e
        lhs, op, rhs = take(), take(), take()
        return ("cmp", lhs, op, rhs)

    def andx():
        e = atom()
        while peek() == "and":
            take()
            e = ("and", e, atom())
        return e

    def orx():
        e = andx()
        while peek() == "or":
            take()
            e = ("or", e, andx())
        return e

    return orx()


def ev(node, env):
    kind = node[0]
    if kind == "and":
        return ev(node[1], env) and ev(node[2], env)
    if kind == "or":
        return ev(node[1], env) or ev(node[2], env)
    _, lhs, op, rhs = node

    def val(t):
        if t[0] in "\"'":
            return t[1:-1], True
        return env[t], False

    (a, alit), (b, blit) = val(lhs), val(rhs)
    var = rhs if alit else lhs
    if var == "extra":
        a, b = norm(a), norm(b)
    if var == "python_version":
        a, b = Version(a), Version(b)
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?\s*([^;]*?)\s*(?:;\s*(.*))?$")


class Req:
    def __init__(self, text):
        m = REQ.match(text)
        if not m:
            raise ValueError(f"bad requirement: {text!r}")
        self.name = norm(m.group(1))
        self.extras = frozenset(norm(e) for e in (m.group(2) or "").split(",") if e.strip())
        self.spec = SpecifierSet(m.group(3) or "")
        self.names_pre = any(Version(s.version.rstrip(".*").rstrip(".")).is_prerelease for s in self.spec)
        self.marker = parse_marker(m.group(4)) if m.group(4) else None

    def active(self, env, extras=()):
        if self.marker is None:
            return True
        return any(ev(self.marker, {**env, "extra": e}) for e in ("", *extras))

    def matches(self, version):
        return self.spec.contains(version, prereleases=True)


def load_index(d):
    projects = {}
    for f in sorted(glob.glob(f"{d}/*.json")):
        data = json.load(open(f))
        name = norm(data["name"])
        rels = projects.setdefault(name, {})
        for v, info in data["releases"].items():
            try:
                ver = Version(v)
            except InvalidVersion:
                continue
            rels[ver] = {"text": v, "requires": [Req(r) for r in info.get("requires", [])],
                         "extras": {norm(e) for e in info.get("extras", [])},
                         "requires_python": SpecifierSet(info.get("requires_python", "") or "")}
    return projects


def read_lines(path):
    out = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def main():
    ap = argparse.ArgumentParser(prog="lock")
    ap.add_argument("--index", default="/app/index")
    ap.add_argument("--python", default="3.11")
    ap.add_argument("--platform", default="linux")
    ap.add_argument("--pre", action="store_true")
    ap.add_argument("-c", dest="constraints", action="append", default=[])
    ap.add_argument("-r", dest="reqfiles", action="append", default=[])
    ap.add_argument("reqs", nargs="*")
    a = ap.parse_args()
    env = {"python_version": a.python, "sys_platform": a.platform}
    py = Version(a.python)
    projects = load_index(a.index)
    roots = [Req(t) for t in a.reqs + [l for f in a.reqfiles for l in read_lines(f)]]
    roots = [r for r in roots if r.active(env)]
    cons = [Req(t) for f in a.constraints for t in read_lines(f)]
    cons = [c for c in cons if c.active(env)]

    # projects that can possibly be needed
    reach, todo = set(), [r.name for r in roots]
    while todo:
        n = todo.pop()
        if n in reach:
            continue
        reach.add(n)
        for rel in projects.get(n, {}).values():
            todo.extend(r.name for r in rel["requires"])
    rootnames = {r.name for r in roots}
    order = sorted(reach & rootnames) + sorted(reach - rootnames)

    def candidates(n):
        rels = projects.get(n, {})
        vs = [v for v in sorted(rels, reverse=True) if rels[v]["requires_python"].contains(py, prereleases=True)]
        vs = [v for v in vs if all(c.matches(v) for c in cons if c.name == n)]
        return vs

    cands = {n: candidates(n) for n in order}
    root_by = {}
    for r in roots:
        root_by.setdefault(r.name, []).append(r)

    def local_ok(lock, n):
        v = lock[n]
        for r in root_by.get(n, ()):
            if v is None or not r.matches(v) or not r.extras <= projects[n][v]["extras"]:
                return False
        # plain (extra-independent) requirements between decided projects
        for p, pv in lock.items():
            if pv is None:
                continue
            for r in projects[p][pv]["requires"]:
                if not r.active(env) or r.name not in lock:
                    continue
                if p != n and r.name != n:
                    continue
                qv = lock[r.name]
                if qv is None or not r.matches(qv) or not r.extras <= projects[r.name][qv]["extras"]:
                    return False
        return True

    def full_ok(lock):
        chosen = {n: v for n, v in lock.items() if v is not None}
        extras = {n: set() for n in chosen}
        active, reached = list(roots), set()
        seen = set()
        changed = True
        while changed:
            changed = False
            for r in list(active):
                key = (id(r), r.name)
                if r.name not in chosen:
                    return False
                if key not in seen:
                    seen.add(key)
                    changed = True
                if r.name not in reached or not r.extras <= extras[r.name]:
                    reached.add(r.name)
                    extras[r.name] |= r.extras
                    changed = True
            for p in list(reached):
                for r in projects[p][chosen[p]]["requires"]:
                    if r not in active and r.active(env, extras[p]):
                        active.append(r)
                        changed = True
        if reached != set(chosen):
            return False
        for r in active:
            v = chosen[r.name]
            if not r.matches(v) or not r.extras <= projects[r.name][v]["extras"]:
                return False
        for n, v in chosen.items():
            if v.is_prerelease and not a.pre:
                if not any(r.name == n and r.names_pre for r in active + cons):
                    return False
        return True

    lock = {}

    def dfs(i):
        if i == len(order):
            return full_ok(lock)
        n = order[i]
        for v in cands[n] + [None]:
            lock[n] = v
            if local_ok(lock, n) and dfs(i + 1):
                return True
            del lock[n]
        return False

    sys.setrecursionlimit(10000)
    if not dfs(0):
        print("error: no solution", file=sys.stderr)
        return 1
    for n in sorted(order):
        if lock[n] is not None:
            print(f"{n}=={projects[n][lock[n]]['text']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
PY
chmod +x /app/lock
