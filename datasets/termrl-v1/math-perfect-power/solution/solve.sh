#!/bin/bash
set -euo pipefail
cat > /app/power.py <<'PY'
import sys


def iroot(n, b):
    """floor(n ** (1/b)) exactly."""
    if n < 2:
        return n
    x = 1 << ((n.bit_length() + b - 1) // b)   # x >= true root
    while True:
        y = ((b - 1) * x + n // x ** (b - 1)) // b
        if y >= x:
            return x
        x = y


def perfect_power(n):
    if n == 1:
        return 1, 1
    for b in range(n.bit_length(), 1, -1):
        a = iroot(n, b)
        if a > 1 and a ** b == n:
            return a, b
    return n, 1


out = []
for line in open(sys.argv[1]):
    line = line.strip()
    if line:
        a, b = perfect_power(int(line))
        out.append(f"{a} {b}")
print("\n".join(out))
PY
python3 /app/power.py /app/numbers.txt
