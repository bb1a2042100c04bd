#!/bin/bash
set -euo pipefail
cat > /app/slide.py <<'PY'
import sys
from collections import deque

GOAL = "123456780"
MOVES = {"U": -3, "D": 3, "L": -1, "R": 1}


def neighbours(s):
    z = s.index("0")
    r, c = divmod(z, 3)
    for m, d in MOVES.items():
        if (m == "U" and r == 0) or (m == "D" and r == 2) or (m == "L" and c == 0) or (m == "R" and c == 2):
            continue
        t = z + d
        lst = list(s)
        lst[z], lst[t] = lst[t], lst[z]
        yield m, "".join(lst)


def build():
    # BFS from the goal; parent move lets us walk back to the goal
    back = {GOAL: None}
    q = deque([GOAL])
    inverse = {"U": "D", "D": "U", "L": "R", "R": "L"}
    while q:
        s = q.popleft()
        for m, t in neighbours(s):
            if t not in back:
                back[t] = inverse[m]   # from t, moving the blank this way goes one step closer
                q.append(t)
    return back


def main():
    puzzles = [l.strip() for l in open(sys.argv[1]) if l.strip()]
    back = build()
    out = []
    for p in puzzles:
        if p not in back:
            out.append("UNSOLVABLE")
            continue
        path = []
        s = p
        while s != GOAL:
            m = back[s]
            path.append(m)
            s = dict(neighbours(s))[m]
        out.append("".join(path))
    sys.stdout.write("\n".join(out) + "\n")


main()
PY
python3 /app/slide.py /app/puzzles.txt
