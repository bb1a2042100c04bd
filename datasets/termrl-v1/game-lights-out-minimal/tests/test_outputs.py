import itertools
import os
import random
import subprocess
import tempfile


def apply(board, presses):
    R, C = len(board), len(board[0])
    b = [row[:] for row in board]
    for r in range(R):
        for c in range(C):
            if presses[r][c]:
                for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < R and 0 <= cc < C:
                        b[rr][cc] ^= 1
    return b


def min_presses(board):
    """Minimum number of presses (None if impossible): GF(2) elimination + null-space enumeration."""
    R, C = len(board), len(board[0])
    n = R * C
    A = []
    for r in range(R):
        for c in range(C):
            m = 0
            for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < R and 0 <= cc < C:
                    m |= 1 << (rr * C + cc)
            A.append((m, board[r][c]))
    basis = {}   # pivot bit -> (mask, rhs)
    for m, v in A:
        for piv, (bm, bv) in basis.items():
            if m >> piv & 1:
                m ^= bm
                v ^= bv
        if m == 0:
            if v:
                return None
            continue
        piv = m.bit_length() - 1
        for p2 in list(basis):
            bm, bv = basis[p2]
            if bm >> piv & 1:
                basis[p2] = (bm ^ m, bv ^ v)
        basis[piv] = (m, v)
    free = [i for i in range(n) if i not in basis]
    best = None
    for bits in itertools.product((0, 1), repeat=len(free)):
        x = sum(1 << f for f, b in zip(free, bits) if b)
        for piv, (m, v) in basis.items():
            if v ^ (bin(m & x).count("1") & 1):
                x |= 1 << piv
        cnt = bin(x).count("1")
        best = cnt if best is None else min(best, cnt)
    return best


def run(board):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join("".join(map(str, r)) for r in board) + "\n")
    try:
        proc = subprocess.run(["python3", "/app/lights.py", fh.name], capture_output=True, text=True, timeout=30)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout.strip()
    if out == "IMPOSSIBLE":
        return None
    rows = out.split("\n")
    assert len(rows) == len(board) and all(len(r.strip()) == len(board[0]) for r in rows), out
    return [[int(ch) for ch in r.strip()] for r in rows]


def check(board):
    want = min_presses(board)
    got = run(board)
    if want is None:
        assert got is None, board
        return
    assert got is not None, board
    assert all(v == 0 for row in apply(board, got) for v in row), board
    assert sum(map(sum, got)) == want, (board, sum(map(sum, got)), want)


def test_example():
    with open("/app/board.txt") as fh:
        board = [[int(ch) for ch in l.strip()] for l in fh if l.strip()]
    got = run(board)
    assert got == [[0] * 5, [0, 1, 0, 0, 0], [0] * 5, [0] * 5, [0] * 5]


def test_small_boards_bruteforce():
    rng = random.Random(5)
    for _ in range(25):
        R, C = rng.randint(1, 4), rng.randint(1, 4)
        board = [[rng.randint(0, 1) for _ in range(C)] for _ in range(R)]
        best = None
        for bits in itertools.product((0, 1), repeat=R * C):
            pr = [list(bits[r * C:(r + 1) * C]) for r in range(R)]
            if all(v == 0 for row in apply(board, pr) for v in row):
                best = sum(bits) if best is None else min(best, sum(bits))
        got = run(board)
        if best is None:
            assert got is None
        else:
            assert got is not None and all(v == 0 for row in apply(board, got) for v in row)
            assert sum(map(sum, got)) == best


def test_solvable_random_boards():
    rng = random.Random(6)
    for R, C in [(5, 5), (4, 4), (9, 9), (10, 10), (6, 8), (10, 3)]:
        presses = [[rng.randint(0, 1) for _ in range(C)] for _ in range(R)]
        board = apply([[0] * C for _ in range(R)], presses)
        check(board)


def test_unsolvable_boards():
    rng = random.Random(7)
    found = 0
    while found < 4:
        R, C = rng.choice([(4, 4), (5, 5), (9, 9)])
        board = [[rng.randint(0, 1) for _ in range(C)] for _ in range(R)]
        if min_presses(board) is None:
            found += 1
            assert run(board) is None


def test_minimality_on_boards_with_large_null_space():
    rng = random.Random(8)
    for R, C in [(4, 4), (9, 9), (4, 9), (5, 5)]:
        for _ in range(2):
            presses = [[1 if rng.random() < 0.7 else 0 for _ in range(C)] for _ in range(R)]
            board = apply([[0] * C for _ in range(R)], presses)
            check(board)
