#!/bin/bash
set -euo pipefail
# Mistake: isolates the roots of the square-free part p / gcd(p, p') correctly but reports every root
# with multiplicity 1.
cat > /app/roots.py <<'PY'
import sys
from fractions import Fraction
from math import gcd

# polynomials: lists of ints/Fractions, lowest degree first


def trim(p):
    while p and p[-1] == 0:
        p.pop()
    return p


def deriv(p):
    return [i * p[i] for i in range(1, len(p))]


def primitive(p):
    """Scale a rational polynomial to a primitive integer one with positive leading coefficient."""
    p = [Fraction(c) for c in p]
    den = 1
    for c in p:
        den = den * c.denominator // gcd(den, c.denominator)
    q = [int(c * den) for c in p]
    g = 0
    for c in q:
        g = gcd(g, c)
    q = [c // g for c in q]
    if q[-1] < 0:
        q = [-c for c in q]
    return q


def prem(a, b):
    """remainder of a by b, scaled to a primitive integer polynomial (sign preserved up to a positive factor)."""
    a = [Fraction(c) for c in a]
    while len(a) >= len(b) and a:
        f = a[-1] / b[-1]
        s = len(a) - len(b)
        for i, c in enumerate(b):
            a[s + i] -= f * c
        trim(a)
    if not a:
        return []
    q = primitive(a)
    # primitive() forces a positive leading coefficient; restore the true sign
    if (a[-1] > 0) != (q[-1] > 0):
        q = [-c for c in q]
    return q


def monic(p):
    p = [Fraction(c) for c in p]
    trim(p)
    return [c / p[-1] for c in p]


def pmod(a, b):
    a = [Fraction(c) for c in a]
    while len(a) >= len(b) and a:
        f = a[-1] / b[-1]
        s = len(a) - len(b)
        for i, c in enumerate(b):
            a[s + i] -= f * c
        trim(a)
    return a


def pgcd(a, b):
    a, b = monic(a), (monic(b) if trim(list(b)) else [])
    while b:
        a, b = b, pmod(a, b)
        b = monic(b) if b else []
    return a


def pdiv(a, b):
    """exact quotient a / b over Q."""
    a = [Fraction(c) for c in a]
    q = [Fraction(0)] * (len(a) - len(b) + 1)
    while a and len(a) >= len(b):
        f = a[-1] / b[-1]
        s = len(a) - len(b)
        q[s] = f
        for i, c in enumerate(b):
            a[s + i] -= f * c
        trim(a)
    assert not a
    return q


def sub(a, b):
    n = max(len(a), len(b))
    return trim([(a[k] if k < len(a) else 0) - (b[k] if k < len(b) else 0) for k in range(n)])


def squarefree_factors(p):
    """Yun's algorithm over Q: [(factor, multiplicity)], factors squarefree, pairwise coprime, degree >= 1."""
    a = monic(p)
    if len(a) == 1:
        return []
    da = deriv(a)
    b = pgcd(a, da)
    c = pdiv(a, b)
    y = pdiv(da, b)
    out = []
    i = 1
    while len(c) > 1:
        z = sub(y, deriv(c))
        g = pgcd(c, z) if z else c
        if len(g) > 1:
            out.append((primitive(g), i))
        c = pdiv(c, g)
        y = pdiv(z, g) if z else []
        i += 1
    return out


def ev(p, x):
    r = Fraction(0)
    for c in reversed(p):
        r = r * x + c
    return r


def sturm(p):
    seq = [p, deriv(p)]
    while True:
        r = prem(seq[-2], seq[-1])
        if not r:
            break
        seq.append([-c for c in r])
    return seq


def variations(seq, x):
    signs = []
    for q in seq:
        v = ev(q, x)
        if v != 0:
            signs.append(v > 0)
    return sum(1 for i in range(1, len(signs)) if signs[i] != signs[i - 1])


def isolate(f, width):
    """open intervals (a, b), one per real root of squarefree f, endpoints not roots, b - a <= width."""
    seq = sturm(f)
    bound = 1 + max(abs(Fraction(c, f[-1])) for c in f[:-1]) if len(f) > 1 else 1
    bound = Fraction(int(bound) + 1)
    res = []
    stack = [(-bound, bound)]
    while stack:
        a, b = stack.pop()
        n = variations(seq, a) - variations(seq, b)
        if n == 0:
            continue
        if n == 1:
            res.append((a, b))
            continue
        m = (a + b) / 2
        if ev(f, m) == 0:
            # a root exactly at the midpoint: isolate it in a tiny interval of its own
            e = (b - a) / 4
            while True:
                if variations(seq, m - e) - variations(seq, m + e) == 1 and ev(f, m - e) != 0 and ev(f, m + e) != 0:
                    break
                e /= 2
            res.append((m - e, m + e))
            stack.append((a, m - e))
            stack.append((m + e, b))
        else:
            stack.append((a, m))
            stack.append((m, b))
    out = []
    for a, b in res:
        sa = ev(f, a) > 0
        while b - a > width:
            m = (a + b) / 2
            v = ev(f, m)
            if v == 0:
                e = min(m - a, b - m, width) / 4
                while ev(f, m - e) == 0 or ev(f, m + e) == 0:
                    e /= 2
                a, b = m - e, m + e
                break
            if (v > 0) == sa:
                a = m
            else:
                b = m
        out.append((a, b))
    return out


def fmt(x):
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def main():
    width = Fraction(1, 10 ** 12)
    for line in open(sys.argv[1]):
        parts = line.split()
        if not parts:
            continue
        p = [int(t) for t in reversed(parts)]
        trim(p)
        roots = []
        sqf = primitive(pdiv(monic(p), pgcd(p, deriv(p)))) if len(p) > 2 else p
        for f, m in [(sqf, 1)]:
            for a, b in isolate(f, width):
                roots.append((a, b, m))
        roots.sort()
        print(" ".join([str(len(roots))] + [f"{fmt(a)} {fmt(b)} {m}" for a, b, m in roots]))


main()
PY
