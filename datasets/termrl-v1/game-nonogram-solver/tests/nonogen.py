import random


def clues_of(line):
    out, run = [], 0
    for v in line:
        if v:
            run += 1
        elif run:
            out.append(run)
            run = 0
    if run:
        out.append(run)
    return out


def puzzle(rng, R, C, density):
    grid = [[1 if rng.random() < density else 0 for _ in range(C)] for _ in range(R)]
    rows = [clues_of(row) for row in grid]
    cols = [clues_of([grid[r][c] for r in range(R)]) for c in range(C)]
    return grid, rows, cols


def text(R, C, rows, cols):
    return f"{R} {C}\n" + "".join((" ".join(map(str, cl)) if cl else "0") + "\n" for cl in rows + cols)
