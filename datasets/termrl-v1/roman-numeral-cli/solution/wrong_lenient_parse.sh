#!/bin/bash
set -euo pipefail
cat > /app/roman.py <<'PY'
import sys
VAL = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
PAIRS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
         (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
def fail(m):
    print(m, file=sys.stderr); sys.exit(2)
a = sys.argv[1:]
if len(a) != 2: fail("usage")
if a[0] == "to":
    try: n = int(a[1])
    except ValueError: fail("bad")
    if not 1 <= n <= 3999: fail("range")
    out = ""
    for v, s in PAIRS:
        while n >= v: out += s; n -= v
    print(out)
elif a[0] == "from":
    s = a[1]
    if not s or any(c not in VAL for c in s): fail("bad")
    total = 0
    for i, c in enumerate(s):
        if i + 1 < len(s) and VAL[c] < VAL[s[i + 1]]: total -= VAL[c]
        else: total += VAL[c]
    print(total)
else: fail("cmd")
PY
