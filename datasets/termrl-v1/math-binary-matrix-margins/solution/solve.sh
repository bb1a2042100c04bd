#!/bin/bash
set -euo pipefail
cat > /app/margins.py <<'PY'
import sys
from math import comb


def count(rows, cols):
    if sum(rows) != sum(cols):
        return 0
    n, m = len(rows), len(cols)
    if any(r > m for r in rows) or any(c > n for c in cols):
        return 0
    # state: tuple cnt[s] = number of columns that still need s ones
    top = max(cols) if cols else 0
    start = [0] * (top + 1)
    for c in cols:
        start[c] += 1
    dp = {tuple(start): 1}
    for r in sorted(rows, reverse=True):
        nxt = {}
        for state, ways in dp.items():
            # choose k_s columns from class s (s >= 1) to receive a one, sum k_s = r
            L = len(state)

            def rec(s, left, mult, new):
                if s == L:
                    if left == 0:
                        key = tuple(new)
                        nxt[key] = nxt.get(key, 0) + ways * mult
                    return
                avail = state[s]
                if s == 0:
                    new[0] += avail
                    rec(1, left, mult, new)
                    new[0] -= avail
                    return
                for k in range(min(avail, left) + 1):
                    new[s] += avail - k
                    new[s - 1] += k
                    rec(s + 1, left - k, mult * comb(avail, k), new)
                    new[s] -= avail - k
                    new[s - 1] -= k

            rec(0, r, 1, [0] * L)
        dp = nxt
    return sum(v for k, v in dp.items() if all(x == 0 for x in k[1:]))


def main():
    for line in open(sys.argv[1]):
        parts = line.split()
        if not parts:
            continue
        rows = [int(x) for x in parts[0].split(",")]
        cols = [int(x) for x in parts[1].split(",")]
        print(count(rows, cols))


main()
PY
