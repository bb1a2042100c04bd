#!/bin/bash
# Plausible but wrong: scan a from isqrt(N) down and test whether N - a^2 is a square. Exact, but ~10^9
# steps for N near 10^18: far over the CPU bar.
set -euo pipefail
cat > /app/twosq <<'PY'
#!/usr/bin/env python3
import math
import sys

if len(sys.argv) != 2 or not sys.argv[1].isdigit() or not 1 <= int(sys.argv[1]) <= 10 ** 18:
    print("usage: twosq N", file=sys.stderr)
    sys.exit(2)
n = int(sys.argv[1])
a = math.isqrt(n)
while 2 * a * a >= n:
    b = math.isqrt(n - a * a)
    if b * b == n - a * a:
        print(a, b)
    a -= 1
PY
chmod +x /app/twosq
