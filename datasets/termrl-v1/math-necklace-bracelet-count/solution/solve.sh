#!/bin/bash
set -euo pipefail
cat > /app/count.py <<'PY'
import sys

P = 1_000_000_007


def factorize(n):
    fs = {}
    d = 2
    while d * d <= n:
        while n % d == 0:
            fs[d] = fs.get(d, 0) + 1
            n //= d
        d += 1 if d == 2 else 2
    if n > 1:
        fs[n] = fs.get(n, 0) + 1
    return fs


def divisors_with_phi(fs):
    items = [(1, 1)]
    for p, e in fs.items():
        nxt = []
        for d, ph in items:
            pk = 1
            for i in range(e + 1):
                nxt.append((d * pk, ph * (pk - pk // p if i else 1)))
                pk *= p
        items = nxt
    return items


def count(n, k):
    M = 4 * n * P                        # work modulo 4nP, divide exactly at the end
    S = 0
    for d, ph in divisors_with_phi(factorize(n)):
        S = (S + ph * pow(k, n // d, M)) % M
    necklaces = (S % (n * P)) // n % P   # S is a multiple of n
    if n % 2:
        T = (2 * S + 2 * n * pow(k, (n + 1) // 2, M)) % M
    else:
        T = (2 * S + n * (k + 1) * pow(k, n // 2, M)) % M
    bracelets = T // (4 * n) % P
    return necklaces, bracelets


def main():
    out = []
    for line in open(sys.argv[1]):
        parts = line.split()
        if len(parts) == 2:
            n, k = int(parts[0]), int(parts[1])
            out.append("%d %d" % count(n, k))
    print("\n".join(out))


main()
PY
python3 /app/count.py /app/queries.txt
