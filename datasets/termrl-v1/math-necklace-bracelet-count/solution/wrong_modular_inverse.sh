#!/bin/bash
# Mistake: divides by n (and by 2, 4) with modular inverses mod P, which breaks when P divides n.
set -euo pipefail
cat > /app/count.py <<'PY'
import sys

P = 1_000_000_007


def factorize(n):
    fs, d = {}, 2
    while d * d <= n:
        while n % d == 0:
            fs[d] = fs.get(d, 0) + 1
            n //= d
        d += 1
    if n > 1:
        fs[n] = fs.get(n, 0) + 1
    return fs


def phi_divs(n):
    items = [(1, 1)]
    for p, e in factorize(n).items():
        items = [(d * p ** i, ph * (p ** i - p ** (i - 1) if i else 1)) for d, ph in items for i in range(e + 1)]
    return items


for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) != 2:
        continue
    n, k = map(int, parts)
    S = sum(ph * pow(k, n // d, P) for d, ph in phi_divs(n)) % P
    inv = lambda x: pow(x % P, P - 2, P)
    N = S * inv(n) % P
    if n % 2:
        B = (N + pow(k, (n + 1) // 2, P)) * inv(2) % P
    else:
        B = (2 * N + (k + 1) * pow(k, n // 2, P)) * inv(4) % P
    print(N, B)
PY
