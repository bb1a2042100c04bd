#!/bin/bash
# Mistake: counts in floating point (to "avoid slow big integers") and rounds at the end.
set -euo pipefail
cat > /app/tilings.py <<'PY'
import sys


def main():
    lines = open(sys.argv[1]).read().split("\n")
    r, c = map(int, lines[0].split())
    grid = [lines[1 + i][:c] for i in range(r)]
    if c > r:  # sweep along the long side, keep the short side in the bitmask
        grid = ["".join(grid[i][j] for i in range(r)) for j in range(c)]
        r, c = c, r
    free = [[ch == "." for ch in row] for row in grid]
    # state: bit j set = cell (row, j) of the current row / (row+1, j) beyond the cursor is already covered
    dp = {0: 1.0}
    for i in range(r):
        for j in range(c):
            nxt = {}
            for mask, ways in dp.items():
                bit = 1 << j
                if not free[i][j]:
                    if mask & bit:
                        continue  # cannot happen: we never cover blocked cells
                    nxt[mask] = nxt.get(mask, 0) + ways
                    continue
                if mask & bit:  # already covered from above: clear bit for the next row
                    m = mask & ~bit
                    nxt[m] = nxt.get(m, 0) + ways
                    continue
                # vertical domino down: covers (i+1, j)
                if i + 1 < r and free[i + 1][j]:
                    m = mask | bit
                    nxt[m] = nxt.get(m, 0) + ways
                # horizontal domino right: covers (i, j+1)
                if j + 1 < c and free[i][j + 1] and not mask & (bit << 1):
                    m = mask | (bit << 1)
                    nxt[m] = nxt.get(m, 0) + ways
            dp = nxt
    # bits of the state never point past the last row (vertical placements check i + 1 < r),
    # and a horizontal mark on (i, j+1) is consumed when the cursor reaches it
    print(int(round(dp.get(0, 0))))


main()
PY
