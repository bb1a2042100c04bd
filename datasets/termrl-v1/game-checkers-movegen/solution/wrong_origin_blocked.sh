#!/bin/bash
# Mistake: the starting square of the moving piece is still treated as occupied during a multi-jump.
set -euo pipefail
cat > /app/checkers.py <<'PY'
import sys


def piece_dirs(p):
    if p == "w":
        return [(-1, -1), (-1, 1)]
    if p == "b":
        return [(1, -1), (1, 1)]
    return [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def legal_moves(board, side):
    own = side + side.upper()
    opp = "bB" if side == "w" else "wW"
    far = 0 if side == "w" else 7
    caps = []

    def jump(r, c, p, path, jumped):
        extended = False
        for dr, dc in piece_dirs(p):
            mr, mc, tr, tc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
            if not (0 <= tr < 8 and 0 <= tc < 8):
                continue
            if board[mr][mc] not in opp or (mr, mc) in jumped:
                continue
            if board[tr][tc] != ".":
                continue
            extended = True
            newpath = path + [(tr, tc)]
            if p.islower() and tr == far:
                caps.append(newpath)
            else:
                jump(tr, tc, p, newpath, jumped | {(mr, mc)})
        if not extended and len(path) > 1:
            caps.append(path)

    pieces = [(r, c, board[r][c]) for r in range(8) for c in range(8) if board[r][c] in own]
    for r, c, p in pieces:
        jump(r, c, p, [(r, c)], frozenset())
    if caps:
        moves = caps
    else:
        moves = []
        for r, c, p in pieces:
            for dr, dc in piece_dirs(p):
                tr, tc = r + dr, c + dc
                if 0 <= tr < 8 and 0 <= tc < 8 and board[tr][tc] == ".":
                    moves.append([(r, c), (tr, tc)])
    return sorted({"-".join(f"{r}{c}" for r, c in m) for m in moves})


def main():
    lines = [l.rstrip("\n") for l in open(sys.argv[1])]
    lines = [l for l in lines if l.strip()]
    board = [list(l[:8]) for l in lines[:8]]
    side = lines[8].strip()
    moves = legal_moves(board, side)
    print("\n".join(moves) if moves else "NONE")


if __name__ == "__main__":
    main()
PY
for f in /app/positions/*.txt; do python3 /app/checkers.py "$f" | diff - "${f%.txt}.out"; done || true
