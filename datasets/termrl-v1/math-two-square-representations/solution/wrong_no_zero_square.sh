#!/bin/bash
# Plausible but wrong: b = 0 is dropped, so squares lose their (sqrt(N), 0) pair.
set -euo pipefail
cat > /app/twosq <<'PY'
#!/usr/bin/env python3
"""All a >= b >= 0 with a^2 + b^2 = N: factor N, split each prime p = 1 (mod 4) in Z[i], and multiply out
every choice of conjugates."""
import math
import random
import sys


def is_prime(n):
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def rho(n):
    if n % 2 == 0:
        return 2
    while True:
        y, c, m = random.randrange(1, n), random.randrange(1, n), 128
        g = r = q = 1
        while g == 1:
            x = y
            for _ in range(r):
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                ys = y
                for _ in range(min(m, r - k)):
                    y = (y * y + c) % n
                    q = q * abs(x - y) % n
                g = math.gcd(q, n)
                k += m
            r *= 2
        if g == n:
            g = 1
            while g == 1:
                ys = (ys * ys + c) % n
                g = math.gcd(abs(x - ys), n)
        if g != n:
            return g


def factor(n, out):
    for p in (2, 3, 5, 7, 11, 13):
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
    stack = [n] if n > 1 else []
    while stack:
        m = stack.pop()
        if is_prime(m):
            out[m] = out.get(m, 0) + 1
        else:
            d = rho(m)
            stack += [d, m // d]
    return out


def split_prime(p):
    """x, y with x^2 + y^2 = p for a prime p = 1 (mod 4)."""
    c = 2
    while pow(c, (p - 1) // 2, p) != p - 1:
        c += 1
    a, b = p, pow(c, (p - 1) // 4, p)
    while b * b > p:
        a, b = b, a % b
    return b, math.isqrt(p - b * b)


def gmul(u, v):
    return (u[0] * v[0] - u[1] * v[1], u[0] * v[1] + u[1] * v[0])


def gpow(u, k):
    r = (1, 0)
    for _ in range(k):
        r = gmul(r, u)
    return r


def pairs(n):
    f = factor(n, {})
    base = (1, 0)
    choices = []
    for p, e in f.items():
        if p == 2:
            base = gmul(base, gpow((1, 1), e))
        elif p % 4 == 3:
            if e % 2:
                return []
            base = gmul(base, (p ** (e // 2), 0))
        else:
            x, y = split_prime(p)
            choices.append([gmul(gpow((x, y), k), gpow((x, -y), e - k)) for k in range(e + 1)])
    zs = [base]
    for opts in choices:
        zs = [gmul(z, o) for z in zs for o in opts]
    found = set()
    for re_, im in zs:
        a, b = abs(re_), abs(im)
        if a and b:  # "a sum of two squares" taken as two positive squares
            found.add((max(a, b), min(a, b)))
    return sorted(found, reverse=True)


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isascii() or not sys.argv[1].isdigit():
        print("usage: twosq N  (a decimal integer 1..10^18)", file=sys.stderr)
        sys.exit(2)
    n = int(sys.argv[1])
    if not 1 <= n <= 10 ** 18:
        print("twosq: N must be between 1 and 10^18", file=sys.stderr)
        sys.exit(2)
    sys.stdout.write("".join(f"{a} {b}\n" for a, b in pairs(n)))


main()
PY
chmod +x /app/twosq
