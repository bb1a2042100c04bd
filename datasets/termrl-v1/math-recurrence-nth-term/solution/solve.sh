#!/bin/bash
set -euo pipefail
cat > /app/nth.py <<'PY'
import sys

P = 998244353


def berlekamp_massey(s):
    C, B = [1], [1]
    L, m, b = 0, 1, 1
    for n in range(len(s)):
        d = s[n]
        for i in range(1, L + 1):
            d = (d + C[i] * s[n - i]) % P
        if d == 0:
            m += 1
            continue
        T = C[:]
        coef = d * pow(b, P - 2, P) % P
        if len(C) < len(B) + m:
            C += [0] * (len(B) + m - len(C))
        for i, v in enumerate(B):
            C[i + m] = (C[i + m] - coef * v) % P
        if 2 * L <= n:
            L, B, b, m = n + 1 - L, T, d, 1
        else:
            m += 1
    return (C + [0] * (L + 1))[:L + 1]


def mulmod(a, b, rec, L):
    # a, b: lists of length L (coefficients of x^0..x^{L-1}); reduce with x^L = sum rec[i] x^{L-1-i}
    prod = [0] * (2 * L - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                prod[i + j] += x * y
    for k in range(2 * L - 2, L - 1, -1):
        c = prod[k] % P
        if c:
            # x^k = x^{k-L} * x^L = sum_i rec[i] x^{k-1-i}
            for i in range(L):
                prod[k - 1 - i] += c * rec[i]
    return [v % P for v in prod[:L]]


def nth(s, N):
    if N < len(s):
        return s[N] % P
    C = berlekamp_massey(s)
    L = len(C) - 1
    if L == 0:
        return 0
    rec = [(-c) % P for c in C[1:]]   # a_n = sum rec[i] a_{n-1-i}
    if L == 1:
        return s[0] * pow(rec[0], N, P) % P
    # x^N mod charpoly
    result = [1] + [0] * (L - 1)
    base = [0, 1] + [0] * (L - 2)
    e = N
    while e:
        if e & 1:
            result = mulmod(result, base, rec, L)
        e >>= 1
        if e:
            base = mulmod(base, base, rec, L)
    return sum(r * v for r, v in zip(result, s)) % P


def main():
    data = open(sys.argv[1]).read().split()
    N, m = int(data[0]), int(data[1])
    s = [int(x) % P for x in data[2:2 + m]]
    print(nth(s, N))


if __name__ == "__main__":
    main()
PY
cd /app/examples && while read -r f want; do echo "$f $(python3 /app/nth.py $f) (want $want)"; done < answers.txt
