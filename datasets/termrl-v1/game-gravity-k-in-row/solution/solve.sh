#!/bin/bash
set -euo pipefail
cat > /app/analyse.py <<'PY'
import sys
from functools import lru_cache

sys.setrecursionlimit(10000)


def main():
    lines = open(sys.argv[1]).read().split("\n")
    W, H, K = map(int, lines[0].split())
    rows = [lines[1 + i][:W] for i in range(H)]
    # columns bottom-up as strings
    cols = tuple("".join(rows[H - 1 - r][c] for r in range(H)).rstrip(".") for c in range(W))
    nx = sum(col.count("X") for col in cols)
    no = sum(col.count("O") for col in cols)
    mover = "X" if nx == no else "O"

    def wins(cs, c, p):
        r = len(cs[c]) - 1

        def at(cc, rr):
            return 0 <= cc < W and 0 <= rr < len(cs[cc]) and cs[cc][rr] == p

        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            k = 1
            while at(c + dc * k, r + dr * k):
                run += 1
                k += 1
            k = 1
            while at(c - dc * k, r - dr * k):
                run += 1
                k += 1
            if run >= K:
                return True
        return False

    def play(cs, c, p):
        return cs[:c] + (cs[c] + p,) + cs[c + 1:]

    # value for the player to move: (kind, n) with kind 1 win, 0 draw, -1 loss
    @lru_cache(maxsize=None)
    def value(cs, p):
        q = "O" if p == "X" else "X"
        best = None
        for c in range(W):
            if len(cs[c]) < H:
                v = move_value(cs, c, p, q)
                if best is None or better(v, best):
                    best = v
        return best if best is not None else (0, 0)

    def move_value(cs, c, p, q):
        ns = play(cs, c, p)
        if wins(ns, c, p):
            return (1, 1)
        if all(len(x) == H for x in ns):
            return (0, 0)
        kind, n = value(ns, q)
        return (-kind, n + 1 if kind else 0)

    def key(v):
        kind, n = v
        if kind == 1:
            return (2, -n)
        if kind == 0:
            return (1, 0)
        return (0, n)

    def better(a, b):
        return key(a) > key(b)

    q = "O" if mover == "X" else "X"
    for c in range(W):
        if len(cols[c]) < H:
            kind, n = move_value(cols, c, mover, q)
            print(f"{c} " + ("draw" if kind == 0 else f"{'win' if kind == 1 else 'loss'} {n}"))


main()
PY
