#!/bin/bash
# Plausible but wrong: a DP over amounts up to a bound (a run of `smallest coin` payable amounts in a row
# proves everything after is payable). Exact, but the table grows with F: far over the CPU bar for large coins.
set -euo pipefail
cat > /app/frobenius <<'PY'
#!/usr/bin/env python3
import math
import sys

args = sys.argv[1:]
if not 2 <= len(args) <= 8 or not all(a.isdigit() for a in args) or not all(1 <= int(a) <= 10 ** 6 for a in args):
    print("usage: frobenius A1 A2 ...", file=sys.stderr)
    sys.exit(2)
coins = sorted(set(map(int, args)))
if math.gcd(*coins) != 1:
    print("infinite")
    sys.exit(0)
a = coins[0]
ok = bytearray([1])
run, n, last_gap, gaps = 1, 0, -1, 0
while run < a:
    n += 1
    v = any(n >= c and ok[n - c] for c in coins)
    ok.append(1 if v else 0)
    if v:
        run += 1
    else:
        run, last_gap, gaps = 0, n, gaps + 1
print(f"frobenius {last_gap}")
print(f"gaps {gaps}")
PY
chmod +x /app/frobenius
