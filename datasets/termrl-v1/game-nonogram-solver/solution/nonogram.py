import sys
from functools import lru_cache

UNK, EMPTY, FULL = 0, 1, 2


def solve_line(clue, cells):
    """Return the refined line (tuple) or None if inconsistent. Cells: UNK/EMPTY/FULL."""
    n, k = len(cells), len(clue)
    # last position where a FULL appears, to forbid skipping it
    @lru_cache(maxsize=None)
    def fits(i, j):
        # can cells[i:] be completed with blocks clue[j:]?
        if j == k:
            return all(c != FULL for c in cells[i:])
        L = clue[j]
        if i + L > n:
            return False
        ok = False
        if cells[i] != FULL and fits(i + 1, j):
            ok = True
        if not ok and all(c != EMPTY for c in cells[i:i + L]) and (i + L == n or cells[i + L] != FULL):
            ok = fits(min(n, i + L + 1), j + 1)
        return ok

    if not fits(0, 0):
        return None
    can_full = [False] * n
    can_empty = [False] * n
    seen = set()
    stack = [(0, 0)]
    while stack:
        i, j = stack.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if j == k:
            for t in range(i, n):
                can_empty[t] = True
            continue
        L = clue[j]
        if i + L > n:
            continue
        if cells[i] != FULL and fits(i + 1, j):
            can_empty[i] = True
            stack.append((i + 1, j))
        if all(c != EMPTY for c in cells[i:i + L]) and (i + L == n or cells[i + L] != FULL) \
                and fits(min(n, i + L + 1), j + 1):
            for t in range(i, i + L):
                can_full[t] = True
            if i + L < n:
                can_empty[i + L] = True
            stack.append((min(n, i + L + 1), j + 1))
    out = []
    for t in range(n):
        if can_full[t] and can_empty[t]:
            out.append(UNK)
        elif can_full[t]:
            out.append(FULL)
        elif can_empty[t]:
            out.append(EMPTY)
        else:
            return None
    return tuple(out)


def propagate(grid, rows, cols, R, C, dirty_rows, dirty_cols):
    while dirty_rows or dirty_cols:
        if dirty_rows:
            r = dirty_rows.pop()
            line = solve_line(rows[r], tuple(grid[r]))
            if line is None:
                return False
            for c in range(C):
                if grid[r][c] != line[c]:
                    grid[r][c] = line[c]
                    dirty_cols.add(c)
        else:
            c = dirty_cols.pop()
            line = solve_line(cols[c], tuple(grid[r][c] for r in range(R)))
            if line is None:
                return False
            for r in range(R):
                if grid[r][c] != line[r]:
                    grid[r][c] = line[r]
                    dirty_rows.add(r)
    return True


def search(grid, rows, cols, R, C, dr, dc):
    if not propagate(grid, rows, cols, R, C, dr, dc):
        return None
    for r in range(R):
        for c in range(C):
            if grid[r][c] == UNK:
                for v in (FULL, EMPTY):
                    g2 = [row[:] for row in grid]
                    g2[r][c] = v
                    res = search(g2, rows, cols, R, C, {r}, {c})
                    if res is not None:
                        return res
                return None
    return grid


def main():
    lines = open(sys.argv[1]).read().splitlines()
    R, C = map(int, lines[0].split())
    clues = [tuple(int(x) for x in line.split() if x != "0") for line in lines[1:1 + R + C]]
    rows, cols = clues[:R], clues[R:]
    grid = [[UNK] * C for _ in range(R)]
    res = search(grid, rows, cols, R, C, set(range(R)), set(range(C)))
    if res is None:
        print("NONE")
        return
    for row in res:
        print("".join("#" if v == FULL else "." for v in row))


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
