#!/bin/bash
# Plausible but wrong: minimax, but the next guess is chosen only among the codes still possible. Looks
# like Knuth's method and wins most games in 5, yet the worst case needs 6 guesses.
set -euo pipefail
cat > /app/codebreaker <<'PY'
#!/usr/bin/env python3
import itertools
import sys
from collections import Counter

CODES = ["".join(p) for p in itertools.product("123456", repeat=4)]


def score(a, b):
    black = sum(x == y for x, y in zip(a, b))
    ca, cb = Counter(a), Counter(b)
    return black, sum(min(ca[c], cb[c]) for c in ca) - black


def next_guess(history):
    if not history:
        return "1122"
    cands = [c for c in CODES if all(score(g, c) == fb for g, fb in history)]
    return min(cands, key=lambda g: (max(Counter(score(g, c) for c in cands).values()), g))


history = []
for line in sys.stdin:
    line = line.strip()
    if line == "end":
        break
    if line == "new":
        history = []
    else:
        b, w = map(int, line.split())
        if b == 4:
            continue
        history.append((guess, (b, w)))
    guess = next_guess(history)
    print(guess, flush=True)
PY
chmod +x /app/codebreaker
