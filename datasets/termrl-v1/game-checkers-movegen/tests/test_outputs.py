import glob
import os
import random
import subprocess
import tempfile


# ---------------- reference move generator ----------------
def _dirs(p):
    return {"w": [(-1, -1), (-1, 1)], "b": [(1, -1), (1, 1)]}.get(p, [(-1, -1), (-1, 1), (1, -1), (1, 1)])


def reference(board, side):
    opp = "bB" if side == "w" else "wW"
    far = 0 if side == "w" else 7
    found = []

    def rec(r, c, p, path, taken):
        more = False
        for dr, dc in _dirs(p):
            mr, mc, tr, tc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
            if 0 <= tr < 8 and 0 <= tc < 8 and board[mr][mc] in opp and (mr, mc) not in taken \
                    and (board[tr][tc] == "." or (tr, tc) == path[0]):
                more = True
                if p.islower() and tr == far:
                    found.append(path + [(tr, tc)])
                else:
                    rec(tr, tc, p, path + [(tr, tc)], taken | {(mr, mc)})
        if not more and len(path) > 1:
            found.append(path)

    mine = [(r, c) for r in range(8) for c in range(8) if board[r][c] in (side, side.upper())]
    for r, c in mine:
        rec(r, c, board[r][c], [(r, c)], frozenset())
    if not found:
        for r, c in mine:
            for dr, dc in _dirs(board[r][c]):
                tr, tc = r + dr, c + dc
                if 0 <= tr < 8 and 0 <= tc < 8 and board[tr][tc] == ".":
                    found.append([(r, c), (tr, tc)])
    return sorted({"-".join(f"{a}{b}" for a, b in m) for m in found}) or ["NONE"]


def run(board, side):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join("".join(row) for row in board) + f"\n{side}\n")
    try:
        proc = subprocess.run(["python3", "/app/checkers.py", fh.name], capture_output=True, text=True, timeout=10)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [l.strip() for l in proc.stdout.splitlines() if l.strip()]


def parse(text):
    rows = text.strip("\n").split("\n")
    return [list(r) for r in rows]


def random_board(rng, n_white, n_black, king_p):
    dark = [(r, c) for r in range(8) for c in range(8) if (r + c) % 2 == 1]
    rng.shuffle(dark)
    board = [["."] * 8 for _ in range(8)]
    for i, (r, c) in enumerate(dark[:n_white + n_black]):
        white = i < n_white
        king = rng.random() < king_p
        if not king and ((white and r == 0) or (not white and r == 7)):
            king = True
        board[r][c] = ("W" if king else "w") if white else ("B" if king else "b")
    return board


def test_example_positions():
    for path in sorted(glob.glob("/app/positions/*.txt")):
        with open(path) as fh:
            lines = [l.rstrip("\n") for l in fh if l.strip()]
        with open(path[:-4] + ".out") as fh:
            want = [l.strip() for l in fh if l.strip()]
        assert run([list(l) for l in lines[:8]], lines[8].strip()) == want, path


def test_mandatory_capture_and_men_direction():
    board = parse("""
........
........
........
...b....
..w.....
.....w..
........
........""")
    assert run(board, "w") == ["42-24"]
    assert run(board, "b") == ["33-51"]


def test_crowning_ends_the_move():
    board = parse("""
........
..b.b...
.w......
........
........
........
........
........""")
    # white man at 21 jumps 12 and lands on 03: crowned, must stop although 14 could be jumped next
    assert run(board, "w") == reference(board, "w") == ["21-03"]


def test_king_circuit_through_origin():
    board = parse("""
........
........
...b.b..
........
...b.b..
....W...
........
........""")
    want = reference(board, "w")
    assert "54-32-14-36-54" in want and "54-36-14-32-54" in want
    assert run(board, "w") == want


def test_jumped_pieces_block_until_move_ends():
    board = parse("""
........
........
.b.b....
B.......
.b.b....
........
........
........""")
    assert run(board, "b") == reference(board, "b")


def test_no_moves():
    board = parse("""
.b......
w.w.....
...w....
........
........
........
........
........""")
    assert run(board, "b") == ["NONE"]


def test_random_positions():
    rng = random.Random(777)
    for i in range(250):
        board = random_board(rng, rng.randint(1, 10), rng.randint(1, 10), king_p=rng.choice([0.0, 0.3, 0.7]))
        side = rng.choice("wb")
        assert run(board, side) == reference(board, side), ("\n".join("".join(r) for r in board), side)
