#!/usr/bin/env python3
import argparse
import heapq
import re
import sys


def order(c):
    if c == "~":
        return -1
    if c.isalpha():
        return ord(c)
    return ord(c) + 256


def cmp_part(a, b):
    i = j = 0
    while i < len(a) or j < len(b):
        # non-digit part
        while (i < len(a) and not a[i].isdigit()) or (j < len(b) and not b[j].isdigit()):
            ca = order(a[i]) if i < len(a) and not a[i].isdigit() else 0
            cb = order(b[j]) if j < len(b) and not b[j].isdigit() else 0
            if ca != cb:
                return -1 if ca < cb else 1
            if i < len(a) and not a[i].isdigit():
                i += 1
            if j < len(b) and not b[j].isdigit():
                j += 1
        na = nb = ""
        while i < len(a) and a[i].isdigit():
            na += a[i]
            i += 1
        while j < len(b) and b[j].isdigit():
            nb += b[j]
            j += 1
        da, db = int(na or 0), int(nb or 0)
        if da != db:
            return -1 if da < db else 1
    return 0


def split_version(v):
    epoch = 0
    if ":" in v:
        e, v = v.split(":", 1)
        epoch = int(e)
    if "-" in v:
        up, rev = v.rsplit("-", 1)
    else:
        up, rev = v, "0"
    return epoch, up, rev


def vcmp(a, b):
    ea, ua, ra = split_version(a)
    eb, ub, rb = split_version(b)
    if ea != eb:
        return -1 if ea < eb else 1
    return cmp_part(ua, ub) or cmp_part(ra, rb)


def satisfies(ver, op, want):
    if op is None:
        return True
    c = vcmp(ver, want)
    return {"<<": c < 0, "<=": c <= 0, "=": c == 0, ">=": c >= 0, ">>": c > 0}[op]


DEP_RE = re.compile(r"^\s*([a-z0-9][a-z0-9+.-]*)\s*(?:\(\s*(<<|<=|=|>=|>>)\s*([^)\s]+)\s*\))?\s*$")


def parse_rel(field):
    clauses = []
    for clause in field.split(","):
        if not clause.strip():
            continue
        alts = []
        for alt in clause.split("|"):
            m = DEP_RE.match(alt)
            if not m:
                raise SystemExit(f"bad relation: {alt!r}")
            alts.append((m.group(1), m.group(2), m.group(3)))
        clauses.append(alts)
    return clauses


def read_stanzas(path):
    out, cur, last = [], {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip():
            if cur:
                out.append(cur)
            cur, last = {}, None
            continue
        if line[0] in " \t" and last:
            cur[last] += " " + line.strip()
            continue
        k, _, v = line.partition(":")
        last = k.strip().lower()
        cur[last] = v.strip()
    if cur:
        out.append(cur)
    return out


class Pkg:
    def __init__(self, st):
        self.name = st["package"]
        self.version = st["version"]
        self.depends = parse_rel(st.get("depends", ""))
        self.conflicts = [a for c in parse_rel(st.get("conflicts", "")) for a in c]
        self.provides = [p.strip() for p in st.get("provides", "").split(",") if p.strip()]

    def key(self):
        return (self.name, self.version)


def conflicts_with(a, b):
    for name, op, ver in a.conflicts:
        if name == b.name and satisfies(b.version, op, ver):
            return True
        if op is None and name in b.provides and name != a.name:
            return True
    return False


class Solver:
    def __init__(self, repo, installed):
        self.repo = repo
        self.installed = installed
        self.by_name = {}
        self.providers = {}
        for p in repo:
            self.by_name.setdefault(p.name, []).append(p)
            for v in p.provides:
                self.providers.setdefault(v, []).append(p)
        for lst in self.by_name.values():
            lst.sort(key=lambda p: _K(p.version), reverse=True)

    def alt_satisfied(self, sel, alt):
        name, op, ver = alt
        for p in sel.values():
            if p.name == name and satisfies(p.version, op, ver):
                return True
            if op is None and name in p.provides:
                return True
        return False

    def candidates(self, alt):
        name, op, ver = alt
        out = [p for p in self.by_name.get(name, []) if satisfies(p.version, op, ver)]
        if op is None:
            provs = sorted(self.providers.get(name, []), key=lambda p: (p.name, _K(p.version)), reverse=False)
            # by provider name ascending, version descending
            provs.sort(key=lambda p: p.name)
            grouped = {}
            for p in provs:
                grouped.setdefault(p.name, []).append(p)
            for n in sorted(grouped):
                out += sorted(grouped[n], key=lambda p: _K(p.version), reverse=True)
        seen, res = set(), []
        for p in out:
            if p.key() not in seen:
                seen.add(p.key())
                res.append(p)
        return res

    def search(self, goals, sel, planned):
        if not goals:
            return planned
        clause, rest = goals[0], goals[1:]
        if any(self.alt_satisfied(sel, a) for a in clause):
            return self.search(rest, sel, planned)
        for alt in clause:
            for cand in self.candidates(alt):
                if cand.name in sel:
                    continue
                if any(conflicts_with(cand, p) or conflicts_with(p, cand) for p in sel.values()):
                    continue
                sel[cand.name] = cand
                res = self.search(list(cand.depends) + rest, sel, planned + [cand])
                if res is not None:
                    return res
                del sel[cand.name]
        return None


class _K:
    def __init__(self, v):
        self.v = v

    def __lt__(self, o):
        return vcmp(self.v, o.v) < 0

    def __eq__(self, o):
        return vcmp(self.v, o.v) == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--status", required=True)
    ap.add_argument("packages", nargs="+")
    a = ap.parse_args()
    repo = [Pkg(s) for s in read_stanzas(a.repo)]
    installed = [Pkg(s) for s in read_stanzas(a.status) if s.get("status", "").endswith(" installed")]
    solver = Solver(repo, installed)
    sel = {p.name: p for p in installed}
    goals = [[(n, None, None)] for n in a.packages]
    planned = solver.search(goals, sel, [])
    if planned is None:
        print("UNSATISFIABLE")
        return 1
    names = {p.name: p for p in planned}
    deps = {n: set() for n in names}
    for p in planned:
        for clause in p.depends:
            for alt in clause:
                for q in planned:
                    if q.name != p.name and ((q.name == alt[0] and satisfies(q.version, alt[1], alt[2])) or
                                             (alt[1] is None and alt[0] in q.provides)):
                        deps[p.name].add(q.name)
    indeg = {n: len(d) for n, d in deps.items()}
    users = {n: [] for n in names}
    for n, d in deps.items():
        for m in d:
            users[m].append(n)
    heap = [n for n, k in indeg.items() if k == 0]
    heapq.heapify(heap)
    out = []
    while heap:
        n = heapq.heappop(heap)
        out.append(n)
        for u in users[n]:
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(heap, u)
    for n in out:
        print(f"{n} {names[n].version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
