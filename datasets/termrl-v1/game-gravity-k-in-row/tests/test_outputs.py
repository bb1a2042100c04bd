import os
import random
import subprocess
import tempfile


# ---------- independent reference: whole-board scan, negamax with a memo ----------

class Ref:
    def __init__(self, W, H, K):
        self.W, self.H, self.K = W, H, K
        self.lines = []
        for r in range(H):
            for c in range(W):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + dr * i, c + dc * i) for i in range(K)]
                    if all(0 <= a < H and 0 <= b < W for a, b in cells):
                        self.lines.append([a * W + b for a, b in cells])
        self.memo = {}

    def has_line(self, board, p):
        return any(all(board[i] == p for i in ln) for ln in self.lines)

    def drop_row(self, board, c):
        # rows counted from the top in the flat board; returns the landing index or None
        for r in range(self.H - 1, -1, -1):
            if board[r * self.W + c] == ".":
                return r * self.W + c
        return None

    def score(self, board, p):
        """Best score for p to move: +(100 - plies) for a win, -(100 - plies) for a loss, 0 draw."""
        key = (board, p)
        if key in self.memo:
            return self.memo[key]
        best = None
        for c in range(self.W):
            s = self.move_score(board, c, p)
            if s is not None and (best is None or s > best):
                best = s
        self.memo[key] = best
        return best

    def move_score(self, board, c, p):
        i = self.drop_row(board, c)
        if i is None:
            return None
        nb = board[:i] + p + board[i + 1:]
        if self.has_line(nb, p):
            return 99
        if "." not in nb:
            return 0
        s = self.score(nb, "O" if p == "X" else "X")
        return -s + 1 if s > 0 else (-s - 1 if s < 0 else 0)

    def analyse(self, rows):
        board = "".join(rows)
        p = "X" if board.count("X") == board.count("O") else "O"
        out = []
        for c in range(self.W):
            s = self.move_score(board, c, p)
            if s is None:
                continue
            if s == 0:
                out.append(f"{c} draw")
            elif s > 0:
                out.append(f"{c} win {100 - s}")
            else:
                out.append(f"{c} loss {100 + s}")
        return out


def random_position(rng, W, H, K, empties, tries=5000, must=True):
    for _ in range(tries):
        ref = Ref(W, H, K)
        board = "." * (W * H)
        p = "X"
        ok = True
        for _ in range(W * H - empties):
            cols = [c for c in range(W) if board[c] == "."]
            c = rng.choice(cols)
            i = ref.drop_row(board, c)
            board = board[:i] + p + board[i + 1:]
            if ref.has_line(board, p):
                ok = False
                break
            p = "O" if p == "X" else "X"
        if ok:
            return [board[r * W:(r + 1) * W] for r in range(H)]
    if not must:
        return None
    raise RuntimeError(f"no random position for {W}x{H} K={K} with {empties} empty cells")


def run(W, H, K, rows):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(f"{W} {H} {K}\n" + "\n".join(rows) + "\n")
    try:
        proc = subprocess.run(["python3", "/app/analyse.py", fh.name], capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [" ".join(ln.split()) for ln in proc.stdout.strip().split("\n") if ln.strip()]


def check(W, H, K, rows):
    want = Ref(W, H, K).analyse(rows)
    got = run(W, H, K, rows)
    assert got == want, f"{W} {H} {K}\n" + "\n".join(rows) + f"\nexpected {want}\ngot {got}"
    return want


def test_example():
    rows = open("/app/examples/pos1.txt").read().split()[3:]
    assert run(4, 4, 3, rows) == ["0 loss 2", "1 loss 4", "2 loss 8", "3 loss 4"]


def test_small_boards_random_positions():
    rng = random.Random(6601)
    seen = set()
    done = 0
    while done < 30:
        W, H = rng.randint(2, 4), rng.randint(2, 4)
        K = rng.randint(2, min(4, max(W, H)))
        e = rng.randint(1, min(10, W * H))
        rows = random_position(rng, W, H, K, e, tries=300, must=False)
        if rows is None:  # e.g. K = 2 with few empty cells: no such position exists
            continue
        done += 1
        for line in check(W, H, K, rows):
            seen.add(line.split()[1])
    assert seen == {"win", "loss", "draw"}, seen


def test_connect_four_sized_endgames():
    rng = random.Random(6602)
    for _ in range(6):
        check(7, 6, 4, random_position(rng, 7, 6, 4, rng.randint(9, 12)))


def test_all_directions_count():
    # each position has an immediate win along one direction
    cases = [
        (4, 3, 3, ["....", "...O", "XX.O"], 2),           # horizontal
        (3, 4, 3, ["...", "...", "XO.", "XO."], 0),       # vertical
        (4, 4, 3, ["....", "....", ".XO.", "XOOX"], 2),   # rising diagonal
        (4, 4, 3, ["....", "....", ".OX.", "XOOX"], 1),   # falling diagonal
    ]
    for W, H, K, rows, col in cases:
        want = check(W, H, K, rows)
        assert f"{col} win 1" in want
    rng = random.Random(6603)
    for _ in range(12):
        check(5, 4, 3, random_position(rng, 5, 4, 3, rng.randint(4, 10)))


def test_distances_prefer_fast_wins_and_slow_losses():
    rng = random.Random(6604)
    longest = 0
    for _ in range(10):
        want = check(5, 5, 4, random_position(rng, 5, 5, 4, 12))
        for line in want:
            parts = line.split()
            if parts[1] != "draw":
                longest = max(longest, int(parts[2]))
    assert longest >= 5


def test_full_columns_are_skipped_and_o_to_move():
    rng = random.Random(6605)
    hit = 0
    for _ in range(15):
        W, H, K = 4, 5, 3
        rows = random_position(rng, W, H, K, rng.randint(3, 9))
        if rows[0].count(".") < W:
            hit += 1
        check(W, H, K, rows)
    assert hit >= 5


def test_long_lines_on_narrow_boards():
    rng = random.Random(6606)
    for W, H, K in ((1, 7, 5), (2, 7, 5), (7, 2, 5), (3, 6, 5), (6, 3, 3)):
        for _ in range(3):
            check(W, H, K, random_position(rng, W, H, K, min(W * H, rng.randint(4, 12))))
    # K = 2: any two touching pieces of one player win
    assert check(3, 2, 2, ["...", "X.O"])[0] == "0 win 1"
    check(4, 2, 2, ["....", "XO.."])
