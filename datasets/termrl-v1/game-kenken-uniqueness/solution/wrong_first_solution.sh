#!/bin/bash
# Mistake: a correct solver that prints the first solution it finds and never checks whether a
# second one exists, so ambiguous puzzles are "accepted".
set -euo pipefail
cat > /app/kenken.py <<'PY'
import sys


def main():
    lines = open(sys.argv[1]).read().split("\n")
    n = int(lines[0])
    k = int(lines[1])
    cages = []
    owner = {}
    for ln in lines[2:2 + k]:
        p = ln.split()
        cells = [(int(p[i]), int(p[i + 1])) for i in range(2, len(p), 2)]
        for cell in cells:
            owner[cell] = len(cages)
        cages.append((p[0], int(p[1]), cells))
    grid = [[0] * n for _ in range(n)]
    rowm = [0] * n
    colm = [0] * n
    # per cage: number of empty cells, running sum and product
    empty = [len(c[2]) for c in cages]
    csum = [0] * len(cages)
    cprod = [1] * len(cages)
    sols = []

    def allowed(i, d):
        op, t, cells = cages[i]
        left = empty[i] - 1
        if op == "=":
            return d == t
        if op == "+":
            s = csum[i] + d
            return s + left <= t and s + left * n >= t and (left > 0 or s == t)
        if op == "*":
            p = cprod[i] * d
            return t % p == 0 and (left > 0 or p == t)
        if left > 0:
            # first cell of a 2-cell cage: some partner digit must exist
            if op == "-":
                return (d + t <= n) or (d - t >= 1)
            return (d * t <= n) or (d % t == 0)
        other = next(grid[r][c] for r, c in cells if grid[r][c])
        hi, lo = max(d, other), min(d, other)
        return hi - lo == t if op == "-" else hi == lo * t

    def rec(filled):
        if filled == n * n:
            sols.append([row[:] for row in grid])
            return
        best, bopts = None, None
        for r in range(n):
            for c in range(n):
                if grid[r][c]:
                    continue
                i = owner[(r, c)]
                used = rowm[r] | colm[c]
                opts = [d for d in range(1, n + 1) if not used >> d & 1 and allowed(i, d)]
                if best is None or len(opts) < len(bopts):
                    best, bopts = (r, c), opts
                    if len(opts) <= 1:
                        break
            if bopts is not None and len(bopts) <= 1:
                break
        r, c = best
        i = owner[best]
        for d in bopts:
            grid[r][c] = d
            rowm[r] |= 1 << d
            colm[c] |= 1 << d
            empty[i] -= 1
            csum[i] += d
            cprod[i] *= d
            rec(filled + 1)
            grid[r][c] = 0
            rowm[r] &= ~(1 << d)
            colm[c] &= ~(1 << d)
            empty[i] += 1
            csum[i] -= d
            cprod[i] //= d
            if len(sols) >= 1:
                return

    rec(0)
    if not sols:
        print("NONE")
    else:
        print("\n".join(" ".join(map(str, row)) for row in sols[0]))


main()
PY
