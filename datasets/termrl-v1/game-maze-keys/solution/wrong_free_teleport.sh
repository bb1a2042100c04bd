#!/bin/bash
# Mistake: stepping onto a teleporter sends you to its twin at once, for free (mandatory, cost 0).
set -euo pipefail
cat > /app/maze.py <<'PY'
import sys
from collections import deque


def solve(lines):
    grid = [l.rstrip("\n") for l in lines if l.strip("\n")]
    h = len(grid)
    w = max(len(r) for r in grid)
    grid = [r.ljust(w, "#") for r in grid]
    tele = {}
    start = None
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            if ch == "S":
                start = (y, x)
            elif ch.isdigit() and ch != "0":
                tele.setdefault(ch, []).append((y, x))
    pair = {}
    for cells in tele.values():
        if len(cells) == 2:
            a, b = cells
            pair[a] = b
            pair[b] = a

    def key_bit(ch):
        return 1 << (ord(ch) - ord("a"))

    sy, sx = start
    k0 = key_bit(grid[sy][sx]) if "a" <= grid[sy][sx] <= "f" else 0
    seen = {(sy, sx, k0)}
    q = deque([(sy, sx, k0, 0)])
    while q:
        y, x, keys, d = q.popleft()
        if grid[y][x] == "G":
            return d
        nbrs = [(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)]
        nbrs = [pair.get(c, c) for c in nbrs]
        for ny, nx in nbrs:
            if not (0 <= ny < h and 0 <= nx < w):
                continue
            ch = grid[ny][nx]
            if ch == "#":
                continue
            if "A" <= ch <= "F" and not keys & key_bit(ch.lower()):
                continue
            nk = keys | key_bit(ch) if "a" <= ch <= "f" else keys
            state = (ny, nx, nk)
            if state not in seen:
                seen.add(state)
                q.append((ny, nx, nk, d + 1))
    return -1


if __name__ == "__main__":
    with open(sys.argv[1]) as fh:
        print(solve(fh.readlines()))
PY
