#!/bin/bash
set -euo pipefail
cat > /app/roman.py <<'PY'
import re
import sys

PAIRS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
         (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n):
    out = []
    for v, s in PAIRS:
        while n >= v:
            out.append(s)
            n -= v
    return "".join(out)


CANON = {to_roman(i): i for i in range(1, 4000)}


def fail(msg):
    print("error: " + msg, file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) != 2:
        fail("usage: roman.py to N | from S")
    cmd, arg = argv
    if cmd == "to":
        if not re.fullmatch(r"-?[0-9]+", arg):
            fail("not an integer")
        n = int(arg)
        if not 1 <= n <= 3999:
            fail("out of range")
        print(to_roman(n))
    elif cmd == "from":
        if arg not in CANON:
            fail("invalid numeral")
        print(CANON[arg])
    else:
        fail("unknown command")


main(sys.argv[1:])
PY
