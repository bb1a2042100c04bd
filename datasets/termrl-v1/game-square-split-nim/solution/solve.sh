#!/bin/bash
set -euo pipefail
cat > /app/game.py <<'PY'
import sys

MAXN = 1500


def grundy_table(n):
    g = [0] * (n + 1)
    squares = [k * k for k in range(1, int(n ** 0.5) + 2)]
    for h in range(1, n + 1):
        seen = set()
        for s in squares:
            if s > h:
                break
            seen.add(g[h - s])
        for a in range((h + 2) // 2, h):       # a > b = h - a > 0
            seen.add(g[a] ^ g[h - a])
        m = 0
        while m in seen:
            m += 1
        g[h] = m
    return g


def main():
    lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
    heaps_all = [[int(x) for x in l] for l in lines]
    n = max([MAXN] + [max(h) for h in heaps_all])
    g = grundy_table(n)
    squares = [k * k for k in range(1, int(n ** 0.5) + 2)]
    for heaps in heaps_all:
        total = 0
        for h in heaps:
            total ^= g[h]
        if total == 0:
            print("SECOND")
            continue
        done = False
        for i, h in enumerate(heaps):
            target = total ^ g[h]
            for s in squares:
                if s > h:
                    break
                if g[h - s] == target:
                    print(f"FIRST {i + 1} {h - s} 0")
                    done = True
                    break
            if done:
                break
            for a in range((h + 2) // 2, h):
                if g[a] ^ g[h - a] == target:
                    print(f"FIRST {i + 1} {a} {h - a}")
                    done = True
                    break
            if done:
                break


main()
PY
python3 /app/game.py /app/positions.txt
