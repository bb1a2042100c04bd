#!/bin/bash
set -euo pipefail
cat > /app/sudokux.py <<'PY'
import sys


def units():
    us = []
    for i in range(9):
        us.append([(i, j) for j in range(9)])
        us.append([(j, i) for j in range(9)])
    for br in range(3):
        for bc in range(3):
            us.append([(3 * br + r, 3 * bc + c) for r in range(3) for c in range(3)])
    us.append([(i, i) for i in range(9)])
    us.append([(i, 8 - i) for i in range(9)])
    return us


UNITS = units()
CELL_UNITS = {(r, c): [k for k, u in enumerate(UNITS) if (r, c) in u] for r in range(9) for c in range(9)}


def solve(grid):
    used = [0] * len(UNITS)
    empty = []
    for r in range(9):
        for c in range(9):
            v = grid[r][c]
            if v:
                bit = 1 << v
                for k in CELL_UNITS[(r, c)]:
                    if used[k] & bit:
                        return None
                    used[k] |= bit
            else:
                empty.append((r, c))

    def rec():
        if not empty:
            return True
        best, best_opts, best_n = None, 0, 10
        for idx, (r, c) in enumerate(empty):
            m = 0
            for k in CELL_UNITS[(r, c)]:
                m |= used[k]
            opts = ~m & 0x3FE
            n = bin(opts).count("1")
            if n < best_n:
                best, best_opts, best_n = idx, opts, n
                if n <= 1:
                    break
        if best_n == 0:
            return False
        r, c = empty.pop(best)
        for v in range(1, 10):
            bit = 1 << v
            if best_opts & bit:
                for k in CELL_UNITS[(r, c)]:
                    used[k] |= bit
                grid[r][c] = v
                if rec():
                    return True
                for k in CELL_UNITS[(r, c)]:
                    used[k] &= ~bit
                grid[r][c] = 0
        empty.insert(best, (r, c))
        return False

    return grid if rec() else None


def main():
    rows = [l.strip() for l in open(sys.argv[1]) if l.strip()]
    grid = [[0 if ch in ".0" else int(ch) for ch in row[:9]] for row in rows[:9]]
    res = solve(grid)
    if res is None:
        print("NO SOLUTION")
    else:
        print("\n".join("".join(map(str, row)) for row in res))


if __name__ == "__main__":
    main()
PY
python3 /app/sudokux.py /app/example.txt
