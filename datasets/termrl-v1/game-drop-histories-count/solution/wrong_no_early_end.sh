#!/bin/bash
set -euo pipefail
# Mistake: counts every alternating order of the pieces, forgetting that the game stops as soon as a
# line of K appears, so histories passing through a won position are counted too.
cat > /app/histories.py <<'PY'
import sys


def main():
    lines = open(sys.argv[1]).read().split("\n")
    W, H, K = map(int, lines[0].split())
    rows = [lines[1 + i].ljust(W, ".")[:W] for i in range(H)]
    cols = ["".join(rows[H - 1 - r][c] for r in range(H)).rstrip(".") for c in range(W)]
    final = tuple(len(c) for c in cols)

    def completes(h, c):
        """does the top piece of column c complete a line of K in the position with heights h?"""
        r = h[c] - 1
        p = cols[c][r]

        def own(cc, rr):
            return 0 <= cc < W and 0 <= rr < h[cc] and cols[cc][rr] == p

        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            k = 1
            while own(c + dc * k, r + dr * k):
                run += 1
                k += 1
            k = 1
            while own(c - dc * k, r - dr * k):
                run += 1
                k += 1
            if run >= K:
                return True
        return False

    # forward over height vectors in order of total pieces; ways[h] = histories reaching h with no
    # line on the board at any earlier moment; only line-free positions are extended
    ways = {tuple([0] * W): 1}
    total = sum(final)
    frontier = [tuple([0] * W)]
    for n in range(total):
        piece = "X" if n % 2 == 0 else "O"
        nxt = {}
        for h in frontier:
            w = ways[h]
            for c in range(W):
                if h[c] < final[c] and cols[c][h[c]] == piece:
                    h2 = h[:c] + (h[c] + 1,) + h[c + 1:]
                    nxt[h2] = nxt.get(h2, 0) + w
        # drop positions that already contain a line unless it is the final position
        frontier = []
        ways = {}
        for h2, w in nxt.items():
            ways[h2] = w
            frontier.append(h2)
        if False:
            alive = []
            for h2 in frontier:
                # the line, if any, was made by the piece just added; any column whose top piece
                # is that colour and was added last could be it: check all top pieces of this colour
                if not any(h2[c] > 0 and cols[c][h2[c] - 1] == piece and completes(h2, c) for c in range(W)):
                    alive.append(h2)
            frontier = alive
            ways = {h2: ways[h2] for h2 in alive}
    print(ways.get(final, 0) if total else 1)


main()
PY
