#!/bin/bash
# Uses DFS post-order (sorted) instead of the smallest-ready-first rule.
set -euo pipefail
cat > /app/deps.py <<'PY'
import heapq
import sys


def die(code, msg):
    print(msg, file=sys.stderr)
    sys.exit(code)


def parse(path):
    try:
        text = open(path).read()
    except OSError as e:
        die(2, f"cannot read {path}: {e}")
    deps = {}
    for no, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        if not line.strip():
            continue
        if ":" not in line:
            die(2, f"line {no}: missing ':'")
        target, rest = line.split(":", 1)
        target = target.strip()
        if not target or any(c.isspace() for c in target) or ":" in rest:
            die(2, f"line {no}: bad rule")
        deps.setdefault(target, set()).update(rest.split())
        for d in rest.split():
            deps.setdefault(d, set())
    return deps


def toposort(deps):
    out, state = [], {}

    def visit(n):
        if state.get(n) == 1:
            die(3, "cycle at " + n)
        if state.get(n) == 2:
            return
        state[n] = 1
        for d in sorted(deps[n]):
            visit(d)
        state[n] = 2
        out.append(n)

    for n in sorted(deps):
        visit(n)
    return out


def _unused(deps):
    indeg = {n: len(ds) for n, ds in deps.items()}
    users = {n: [] for n in deps}
    for n, ds in deps.items():
        for d in ds:
            users[d].append(n)
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
    if len(out) != len(deps):
        stuck = sorted(n for n in deps if indeg[n] > 0)
        die(3, "cycle among: " + " ".join(stuck))
    return out


def closure(start, edges):
    seen, stack = set(), [start]
    while stack:
        for m in edges.get(stack.pop(), ()):
            if m not in seen:
                seen.add(m)
                stack.append(m)
    return seen


def main(argv):
    if len(argv) < 2:
        die(2, "usage: deps.py FILE order|needs NAME|affected NAME")
    path, cmd, rest = argv[0], argv[1], argv[2:]
    if cmd == "order" and rest:
        die(2, "order takes no argument")
    if cmd in ("needs", "affected") and len(rest) != 1:
        die(2, f"{cmd} takes one NAME")
    if cmd not in ("order", "needs", "affected"):
        die(2, f"unknown command {cmd}")
    deps = parse(path)
    order = toposort(deps)
    if cmd == "order":
        sel = set(order)
    else:
        name = rest[0]
        if name not in deps:
            die(4, f"unknown node {name}")
        if cmd == "needs":
            sel = closure(name, deps)
        else:
            rev = {n: [] for n in deps}
            for n, ds in deps.items():
                for d in ds:
                    rev[d].append(n)
            sel = closure(name, rev)
    for n in order:
        if n in sel:
            print(n)


main(sys.argv[1:])
PY
