import os
import random
import subprocess
import sys
import tempfile
from functools import lru_cache

sys.setrecursionlimit(100000)


# ---------- references ----------

def lines_of(W, H, K):
    out = []
    for r in range(H):
        for c in range(W):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * i, c + dc * i) for i in range(K)]
                if all(0 <= a < H and 0 <= b < W for a, b in cells):
                    out.append(cells)
    return out


def brute(W, H, K, rows):
    """every move order, replayed move by move, full-board line scan after each move."""
    lines = lines_of(W, H, K)
    total = sum(r.count("X") + r.count("O") for r in rows)
    board = [["."] * W for _ in range(H)]
    count = 0

    def line_for(p):
        return any(all(board[a][b] == p for a, b in ln) for ln in lines)

    def go(n):
        nonlocal count
        if n == total:
            count += 1
            return
        p = "X" if n % 2 == 0 else "O"
        for c in range(W):
            r = H - 1
            while r >= 0 and board[r][c] != ".":
                r -= 1
            if r < 0 or rows[r][c] != p:
                continue
            board[r][c] = p
            if n + 1 == total or not line_for(p):
                go(n + 1)
            board[r][c] = "."

    go(0)
    return count


def retro(W, H, K, rows):
    """backwards over height vectors: remove top pieces, memoised."""
    cols = ["".join(rows[H - 1 - r][c] for r in range(H)).rstrip(".") for c in range(W)]
    final = tuple(len(x) for x in cols)

    def through(h, c):
        r = h[c] - 1
        p = cols[c][r]
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                k = 1
                while True:
                    cc, rr = c + s * dc * k, r + s * dr * k
                    if 0 <= cc < W and 0 <= rr < h[cc] and cols[cc][rr] == p:
                        n += 1
                        k += 1
                    else:
                        break
            if n >= K:
                return True
        return False

    @lru_cache(maxsize=None)
    def dirty(h):  # the position h contains a line
        for c in range(W):
            if h[c]:
                return dirty(h[:c] + (h[c] - 1,) + h[c + 1:]) or any(through(h, d) for d in range(W) if h[d])
        return False

    @lru_cache(maxsize=None)
    def clean_ways(h):  # histories reaching h, no line at any moment up to and including h
        if dirty(h):
            return 0
        return ways(h)

    @lru_cache(maxsize=None)
    def ways(h):  # histories reaching h, no line before h
        n = sum(h)
        if n == 0:
            return 1
        p = "X" if (n - 1) % 2 == 0 else "O"
        return sum(clean_ways(h[:c] + (h[c] - 1,) + h[c + 1:]) for c in range(W) if h[c] and cols[c][h[c] - 1] == p)

    return ways(final)


def playout(rng, W, H, n, flip=0.0):
    board = [["."] * W for _ in range(H)]
    p = "X"
    for _ in range(n):
        cs = [c for c in range(W) if board[0][c] == "."]
        c = rng.choice(cs)
        r = H - 1
        while board[r][c] != ".":
            r -= 1
        board[r][c] = p if rng.random() >= flip else ("O" if p == "X" else "X")
        p = "O" if p == "X" else "X"
    return ["".join(r) for r in board]


def run(W, H, K, rows):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(f"{W} {H} {K}\n" + "\n".join(rows) + "\n")
    try:
        proc = subprocess.run(["python3", "/app/histories.py", fh.name], capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip()


def check(W, H, K, rows, ref):
    want = str(ref(W, H, K, rows))
    got = run(W, H, K, rows)
    assert got == want, f"{W} {H} {K}\n" + "\n".join(rows) + f"\nexpected {want}, got {got}"
    return int(want)


def test_example():
    assert run(3, 3, 3, ["...", "OX.", "XOX"]) == "4"
    assert run(3, 3, 3, ["...", "OO.", "XXX"]) == "2"


def test_small_positions_against_brute_force():
    rng = random.Random(3301)
    nonzero = zero = 0
    for _ in range(40):
        W, H = rng.randint(1, 4), rng.randint(1, 4)
        K = rng.randint(2, 4)
        rows = playout(rng, W, H, rng.randint(0, min(W * H, 9)), flip=0.08)
        v = check(W, H, K, rows, brute)
        nonzero += v > 0
        zero += v == 0
    assert nonzero >= 15 and zero >= 5


def test_final_move_may_win():
    # the last move completes a line: still a legal history
    check(4, 4, 3, ["....", "....", "OO..", "XXX."], brute)
    check(4, 4, 3, ["....", "X...", "XO..", "XOO."], brute)
    assert check(4, 3, 3, ["....", "O...", "XO.O"], brute) == 0  # O would have to move twice in a row
    assert check(5, 4, 3, [".....", ".....", "OO...", "XXXOX"], brute) > 0


def test_lines_that_must_not_exist_earlier():
    rng = random.Random(3302)
    for _ in range(12):
        rows = playout(rng, 4, 4, rng.randint(8, 11))
        check(4, 4, 3, rows, brute)


def test_connect_four_boards():
    rng = random.Random(3303)
    for _ in range(6):
        rows = playout(rng, 7, 6, rng.randint(20, 36))
        check(7, 6, 4, rows, retro)


def test_large_boards_without_lines():
    rng = random.Random(3304)
    for W, H, K in ((6, 6, 7), (7, 5, 6), (5, 7, 6)):
        rows = playout(rng, W, H, W * H - rng.randint(0, 4))
        assert check(W, H, K, rows, retro) > 10 ** 9


def test_mixed_sizes():
    rng = random.Random(3305)
    for _ in range(10):
        W, H = rng.randint(2, 7), rng.randint(2, 7)
        K = rng.randint(3, 6)
        rows = playout(rng, W, H, rng.randint(1, W * H), flip=0.03)
        check(W, H, K, rows, retro)
