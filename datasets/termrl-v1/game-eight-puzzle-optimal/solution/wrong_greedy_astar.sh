#!/bin/bash
# Mistake: weighted A* (2 x Manhattan distance) is fast but not always optimal.
set -euo pipefail
cat > /app/slide.py <<'PY'
import heapq
import sys

GOAL = "123456780"


def h(s):
    d = 0
    for i, ch in enumerate(s):
        if ch != "0":
            g = int(ch) - 1
            d += abs(i // 3 - g // 3) + abs(i % 3 - g % 3)
    return d


def solvable(s):
    t = [int(c) for c in s if c != "0"]
    inv = sum(1 for i in range(8) for j in range(i + 1, 8) if t[i] > t[j])
    return inv % 2 == 0


def solve(s):
    pq = [(2 * h(s), 0, s, "")]
    seen = {s: 0}
    while pq:
        f, g, cur, path = heapq.heappop(pq)
        if cur == GOAL:
            return path
        z = cur.index("0")
        r, c = divmod(z, 3)
        for m, d, ok in (("U", -3, r > 0), ("D", 3, r < 2), ("L", -1, c > 0), ("R", 1, c < 2)):
            if not ok:
                continue
            l = list(cur)
            l[z], l[z + d] = l[z + d], l[z]
            n = "".join(l)
            if n not in seen or seen[n] > g + 1:
                seen[n] = g + 1
                heapq.heappush(pq, (g + 1 + 2 * h(n), g + 1, n, path + m))


for line in open(sys.argv[1]):
    p = line.strip()
    if p:
        print(solve(p) if solvable(p) else "UNSOLVABLE")
PY
