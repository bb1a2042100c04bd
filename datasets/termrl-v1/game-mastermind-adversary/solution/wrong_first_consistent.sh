#!/bin/bash
# Plausible but wrong: always guess the first code (in order) that is consistent with every answer so far.
# Wins every honest game eventually and averages ~4.8 guesses, but an adversarial referee drags it to 6-8.
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
    guess = "1122" if not history else next(c for c in CODES if all(score(g, c) == fb for g, fb in history))
    print(guess, flush=True)
PY
chmod +x /app/codebreaker
