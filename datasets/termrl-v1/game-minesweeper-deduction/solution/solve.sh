#!/bin/bash
set -euo pipefail
cat > /app/mines.py <<'PY'
import sys


def analyse(R, C, M, grid):
    cells = [(r, c) for r in range(R) for c in range(C)]
    unknown = [p for p in cells if grid[p[0]][p[1]] == "."]
    def nbrs(r, c):
        return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < R and 0 <= c + dc < C]
    cons = []
    for r, c in cells:
        ch = grid[r][c]
        if ch != ".":
            us = [p for p in nbrs(r, c) if grid[p[0]][p[1]] == "."]
            cons.append((int(ch), us))
            if len(us) < int(ch):
                return None
    frontier = sorted({p for _, us in cons for p in us})
    interior = [p for p in unknown if p not in set(frontier)]
    I = len(interior)
    # order frontier cells by BFS over shared constraints to prune early
    idx_cons = {p: [] for p in frontier}
    for k, (_, us) in enumerate(cons):
        for p in us:
            idx_cons[p].append(k)
    order, seen = [], set()
    for start in frontier:
        if start in seen:
            continue
        queue = [start]
        seen.add(start)
        while queue:
            p = queue.pop(0)
            order.append(p)
            for k in idx_cons[p]:
                for q in cons[k][1]:
                    if q not in seen:
                        seen.add(q)
                        queue.append(q)
    need = [n for n, _ in cons]
    left = [len(us) for _, us in cons]
    assign = {}
    can_mine, can_safe = set(), set()
    interior_mine = interior_safe = False
    feasible = False

    def rec(i, k):
        nonlocal interior_mine, interior_safe, feasible
        if k > M:
            return
        if i == len(order):
            rest = M - k
            if 0 <= rest <= I:
                feasible = True
                for p, v in assign.items():
                    (can_mine if v else can_safe).add(p)
                if rest >= 1:
                    interior_mine = True
                if rest <= I - 1:
                    interior_safe = True
            return
        p = order[i]
        for v in (0, 1):
            ok = True
            for kk in idx_cons[p]:
                need[kk] -= v
                left[kk] -= 1
                if need[kk] < 0 or need[kk] > left[kk]:
                    ok = False
            if ok:
                assign[p] = v
                rec(i + 1, k + v)
                del assign[p]
            for kk in idx_cons[p]:
                need[kk] += v
                left[kk] += 1

    rec(0, 0)
    if not feasible:
        return None
    out = [list(row) for row in grid]
    for p in frontier:
        m, s = p in can_mine, p in can_safe
        out[p[0]][p[1]] = "?" if (m and s) else ("M" if m else "S")
    for p in interior:
        out[p[0]][p[1]] = "?" if (interior_mine and interior_safe) else ("M" if interior_mine else "S")
    return ["".join(row) for row in out]


def main():
    lines = [l.rstrip("\n") for l in open(sys.argv[1]) if l.strip()]
    R, C, M = map(int, lines[0].split())
    grid = [l[:C] for l in lines[1:1 + R]]
    res = analyse(R, C, M, grid)
    print("INCONSISTENT" if res is None else "\n".join(res))


if __name__ == "__main__":
    main()
PY
for f in /app/boards/*.txt; do python3 /app/mines.py "$f" | diff - "${f%.txt}.out"; done && echo examples ok
