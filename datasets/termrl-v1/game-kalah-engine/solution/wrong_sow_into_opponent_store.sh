#!/bin/bash
# Mistake: sows into the opponent's store as well.
set -euo pipefail
cat > /app/kalah.py <<'PY'
import sys


def play(board, mover, moves):
    """Returns (board, status, illegal_index) where status is 'S', 'N' or 'OVER'."""
    board = board[:]
    over = False
    for idx, m in enumerate(moves, start=1):
        if over or not (1 <= m <= 6):
            return board, ("OVER" if over else mover), idx
        pit = (m - 1) if mover == "S" else 7 + (m - 1)
        if board[pit] == 0:
            return board, mover, idx
        own_store, opp_store = (6, 13) if mover == "S" else (13, 6)
        seeds, board[pit] = board[pit], 0
        pos = pit
        while seeds:
            pos = (pos + 1) % 14
            board[pos] += 1
            seeds -= 1
        own_pits = range(0, 6) if mover == "S" else range(7, 13)
        extra = pos == own_store
        if pos in own_pits and board[pos] == 1 and board[12 - pos] > 0:
            board[own_store] += board[pos] + board[12 - pos]
            board[pos] = board[12 - pos] = 0
        if sum(board[0:6]) == 0 or sum(board[7:13]) == 0:
            board[6] += sum(board[0:6])
            board[13] += sum(board[7:13])
            for i in list(range(0, 6)) + list(range(7, 13)):
                board[i] = 0
            over = True
            continue
        if not extra:
            mover = "N" if mover == "S" else "S"
    return board, ("OVER" if over else mover), None


def main():
    lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
    board = [int(x) for x in lines[0]]
    mover = lines[1][0]
    moves = [int(x) for x in lines[2]] if len(lines) > 2 else []
    board, status, bad = play(board, mover, moves)
    if bad is not None:
        print(f"ILLEGAL {bad}")
    print(" ".join(map(str, board)))
    print(status)


if __name__ == "__main__":
    main()
PY
for f in /app/games/*.txt; do python3 /app/kalah.py "$f" | diff - "${f%.txt}.out"; done || true
