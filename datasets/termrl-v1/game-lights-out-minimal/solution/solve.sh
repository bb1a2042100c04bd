#!/bin/bash
set -euo pipefail
cat > /app/lights.py <<'PY'
import sys
from itertools import product


def solve(grid):
    R, C = len(grid), len(grid[0])
    n = R * C
    rows = []
    for r in range(R):
        for c in range(C):
            mask = 0
            for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < R and 0 <= cc < C:
                    mask |= 1 << (rr * C + cc)
            rows.append([mask, grid[r][c]])    # equation for cell (r, c): sum of presses affecting it = light
    # Gaussian elimination over GF(2); bit j of mask = press j
    pivots = []
    eqs = rows
    where = [-1] * n
    rank = 0
    for col in range(n):
        piv = None
        for i in range(rank, n):
            if eqs[i][0] >> col & 1:
                piv = i
                break
        if piv is None:
            continue
        eqs[rank], eqs[piv] = eqs[piv], eqs[rank]
        for i in range(n):
            if i != rank and eqs[i][0] >> col & 1:
                eqs[i][0] ^= eqs[rank][0]
                eqs[i][1] ^= eqs[rank][1]
        where[col] = rank
        rank += 1
    for i in range(rank, n):
        if eqs[i][1]:
            return None
    free = [col for col in range(n) if where[col] == -1]
    best = None
    for assign in product((0, 1), repeat=len(free)):
        x = 0
        for f, v in zip(free, assign):
            if v:
                x |= 1 << f
        for col in range(n):
            if where[col] != -1:
                e = eqs[where[col]]
                val = e[1] ^ (bin(e[0] & x & ~(1 << col)).count("1") & 1)
                if val:
                    x |= 1 << col
        if best is None or bin(x).count("1") < bin(best).count("1"):
            best = x
    return [[best >> (r * C + c) & 1 for c in range(C)] for r in range(R)]


def main():
    grid = [[int(ch) for ch in l.strip()] for l in open(sys.argv[1]) if l.strip()]
    res = solve(grid)
    if res is None:
        print("IMPOSSIBLE")
    else:
        print("\n".join("".join(map(str, row)) for row in res))


if __name__ == "__main__":
    main()
PY
python3 /app/lights.py /app/board.txt
