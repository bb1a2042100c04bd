import glob
import os
import random
import subprocess
import tempfile


def ref_play(board, mover, moves):
    board = board[:]
    over = False
    for j, m in enumerate(moves, 1):
        if over or m < 1 or m > 6:
            return board, "OVER" if over else mover, j
        pit = m - 1 if mover == "S" else m + 6
        if not board[pit]:
            return board, mover, j
        store, skip = (6, 13) if mover == "S" else (13, 6)
        n, board[pit], pos = board[pit], 0, pit
        while n:
            pos = (pos + 1) % 14
            if pos != skip:
                board[pos] += 1
                n -= 1
        mine = range(0, 6) if mover == "S" else range(7, 13)
        again = pos == store
        if pos in mine and board[pos] == 1 and board[12 - pos]:
            board[store] += 1 + board[12 - pos]
            board[pos] = board[12 - pos] = 0
        if not any(board[0:6]) or not any(board[7:13]):
            board[6] += sum(board[0:6])
            board[13] += sum(board[7:13])
            board = [0] * 6 + [board[6]] + [0] * 6 + [board[13]]
            over = True
        elif not again:
            mover = "N" if mover == "S" else "S"
    return board, "OVER" if over else mover, None


def expected_output(board, mover, moves):
    b, status, bad = ref_play(board, mover, moves)
    lines = [f"ILLEGAL {bad}"] if bad else []
    return lines + [" ".join(map(str, b)), status]


def run(board, mover, moves, raw_moves=None):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(" ".join(map(str, board)) + "\n" + mover + "\n")
        fh.write((raw_moves if raw_moves is not None else " ".join(map(str, moves))) + "\n")
    try:
        proc = subprocess.run(["python3", "/app/kalah.py", fh.name], capture_output=True, text=True, timeout=10)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [l.strip() for l in proc.stdout.splitlines() if l.strip()]


def random_legal_game(rng, board, mover, length):
    moves = []
    b, m = board, mover
    for _ in range(length):
        b2, status, _ = ref_play(b, m, [])
        if status == "OVER":
            break
        own = range(0, 6) if m == "S" else range(7, 13)
        choices = [i - own.start + 1 for i in own if b[i]]
        if not choices:
            break
        mv = rng.choice(choices)
        moves.append(mv)
        b, m, _ = ref_play(b, m, [mv])
        if m == "OVER":
            break
    return moves


def test_examples():
    for path in sorted(glob.glob("/app/games/*.txt")):
        with open(path) as fh:
            lines = [l.split() for l in fh if l.strip()]
        board, mover = [int(x) for x in lines[0]], lines[1][0]
        moves = [int(x) for x in lines[2]] if len(lines) > 2 else []
        with open(path[:-4] + ".out") as fh:
            want = [l.strip() for l in fh if l.strip()]
        assert run(board, mover, moves) == want, path


def test_full_random_games_standard_start():
    rng = random.Random(101)
    for seeds in (3, 4, 6):
        for _ in range(12):
            board = [seeds] * 6 + [0] + [seeds] * 6 + [0]
            mover = rng.choice("SN")
            moves = random_legal_game(rng, board, mover, 200)
            assert run(board, mover, moves) == expected_output(board, mover, moves)


def test_random_midgame_positions():
    rng = random.Random(202)
    for _ in range(60):
        board = [rng.choice([0, 0, 1, 2, 3, 5, 8, 13]) for _ in range(14)]
        board[6], board[13] = rng.randint(0, 20), rng.randint(0, 20)
        if not any(board[0:6]) or not any(board[7:13]):
            board[0] += 1
            board[7] += 1
        mover = rng.choice("SN")
        moves = random_legal_game(rng, board, mover, rng.randint(1, 15))
        assert run(board, mover, moves) == expected_output(board, mover, moves)


def test_capture_rules():
    # South sows from pit 1 (index 0) one seed into empty index 1; opposite index 11 has 5 -> capture 6
    board = [1, 0, 2, 2, 2, 2, 0, 3, 3, 3, 3, 5, 3, 0]
    assert run(board, "S", [1]) == ["0 0 2 2 2 2 6 3 3 3 3 0 3 0", "N"]
    # same, but the opposite pit is empty -> no capture
    board = [1, 0, 2, 2, 2, 2, 0, 3, 3, 3, 3, 0, 3, 0]
    assert run(board, "S", [1]) == ["0 1 2 2 2 2 0 3 3 3 3 0 3 0", "N"]
    # a big pit laps the board, skips North's store and ends in its own emptied origin pit
    board = [13, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0]
    assert run(board, "S", [1]) == expected_output(board, "S", [1])


def test_illegal_moves_and_game_over():
    board = [0, 3, 3, 3, 3, 3, 0, 3, 3, 3, 3, 3, 3, 0]
    assert run(board, "S", [1, 2]) == ["ILLEGAL 1", " ".join(map(str, board)), "S"]
    assert run(board, "S", [2, 7]) == expected_output(board, "S", [2, 7])
    assert expected_output(board, "S", [2, 7])[0] == "ILLEGAL 2"
    # North empties the last seeds of its side -> game over, South collects its remaining seeds
    board = [2, 0, 0, 1, 0, 0, 10, 0, 0, 0, 0, 0, 1, 12]
    assert run(board, "N", [6]) == ["0 0 0 0 0 0 13 0 0 0 0 0 0 13", "OVER"]
    assert run(board, "N", [6, 1]) == ["ILLEGAL 2", "0 0 0 0 0 0 13 0 0 0 0 0 0 13", "OVER"]
    # South's move empties North's pits by capture -> game over as well
    board = [0, 0, 0, 0, 1, 0, 5, 4, 0, 0, 0, 0, 0, 7]
    assert run(board, "S", [5]) == expected_output(board, "S", [5])
    assert run(board, "S", [], raw_moves="") == [" ".join(map(str, board)), "S"]
