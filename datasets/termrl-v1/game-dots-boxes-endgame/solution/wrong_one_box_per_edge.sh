#!/bin/bash
set -euo pipefail
# Mistake: an edge that completes two boxes at once is scored as one box.
cat > /app/dots.py <<'PY'
import sys
from functools import lru_cache


def main():
    lines = open(sys.argv[1]).read().split("\n")
    W, H = map(int, lines[0].split())
    grid = [(lines[1 + r] if 1 + r < len(lines) else "").ljust(2 * W + 1) for r in range(2 * H + 1)]
    edges = []  # (r, c) of every edge in reading order
    for r in range(2 * H + 1):
        for c in range(2 * W + 1):
            if (r + c) % 2 == 1:
                edges.append((r, c))
    index = {e: i for i, e in enumerate(edges)}
    drawn = 0
    for i, (r, c) in enumerate(edges):
        if grid[r][c] in "-|":
            drawn |= 1 << i
    boxes = []
    for r in range(1, 2 * H, 2):
        for c in range(1, 2 * W, 2):
            boxes.append(sum(1 << index[e] for e in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))))
    edge_boxes = [[b for b in boxes if b >> i & 1] for i in range(len(edges))]
    full = (1 << len(edges)) - 1

    def gain(state, i):
        new = state | 1 << i
        return min(1, sum(1 for b in edge_boxes[i] if new & b == b))

    @lru_cache(maxsize=None)
    def value(state):
        """best net future boxes for the player to move."""
        if state == full:
            return 0
        best = None
        for i in range(len(edges)):
            if not state >> i & 1:
                v = move(state, i)
                if best is None or v > best:
                    best = v
        return best

    def move(state, i):
        g = gain(state, i)
        rest = value(state | 1 << i)
        return g + rest if g else -rest

    for i, (r, c) in enumerate(edges):
        if not drawn >> i & 1:
            print(r, c, move(drawn, i))


main()
PY
