#!/bin/bash
# Mistake: BFS over positions only; a cell is never revisited after a key has been collected.
set -euo pipefail
cat > /app/maze.py <<'PY'
import sys
from collections import deque

grid = [l.rstrip("\n") for l in open(sys.argv[1]) if l.strip("\n")]
h, w = len(grid), max(len(r) for r in grid)
grid = [r.ljust(w, "#") for r in grid]
tele = {}
for y, row in enumerate(grid):
    for x, ch in enumerate(row):
        if ch == "S":
            start = (y, x)
        elif ch in "123456789":
            tele.setdefault(ch, []).append((y, x))
pair = {}
for a, b in tele.values():
    pair[a], pair[b] = b, a
q = deque([(start, frozenset(), 0)])
seen = {start}
ans = -1
while q:
    (y, x), keys, d = q.popleft()
    if grid[y][x] == "G":
        ans = d
        break
    for ny, nx in [(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)] + ([pair[(y, x)]] if (y, x) in pair else []):
        if not (0 <= ny < h and 0 <= nx < w) or (ny, nx) in seen:
            continue
        ch = grid[ny][nx]
        if ch == "#" or (ch.isupper() and ch != "S" and ch != "G" and ch.lower() not in keys):
            continue
        seen.add((ny, nx))
        q.append(((ny, nx), keys | {ch} if ch.islower() else keys, d + 1))
print(ans)
PY
