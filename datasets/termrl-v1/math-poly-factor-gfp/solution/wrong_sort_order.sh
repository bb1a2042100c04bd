#!/bin/bash
# Mistake: orders same-degree factors by their coefficients from the constant term up.
set -euo pipefail
cat > /app/polyfactor.py <<'PY'
import random
import sys

_rng = random.Random(12345)


def trim(a):
    while a and a[-1] == 0:
        a.pop()
    return a


def sub(a, b, p):
    n = max(len(a), len(b))
    return trim([((a[i] if i < len(a) else 0) - (b[i] if i < len(b) else 0)) % p for i in range(n)])


def add(a, b, p):
    n = max(len(a), len(b))
    return trim([((a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0)) % p for i in range(n)])


def mul(a, b, p):
    if not a or not b:
        return []
    r = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                r[i + j] += x * y
    return trim([v % p for v in r])


def divmod_(a, b, p):
    a = a[:]
    inv = pow(b[-1], p - 2, p)
    db = len(b) - 1
    q = [0] * max(len(a) - db, 0)
    for i in range(len(a) - 1, db - 1, -1):
        c = a[i] * inv % p
        if c:
            q[i - db] = c
            for j in range(db + 1):
                a[i - db + j] = (a[i - db + j] - c * b[j]) % p
    return trim(q), trim(a[:db])


def mod(a, b, p):
    return divmod_(a, b, p)[1]


def monic(a, p):
    inv = pow(a[-1], p - 2, p)
    return [x * inv % p for x in a]


def gcd(a, b, p):
    while b:
        a, b = b, mod(a, b, p)
    return monic(a, p) if a else a


def powmod(a, e, f, p):
    result = [1]
    a = mod(a, f, p)
    while e:
        if e & 1:
            result = mod(mul(result, a, p), f, p)
        e >>= 1
        if e:
            a = mod(mul(a, a, p), f, p)
    return result


def deriv(a, p):
    return trim([i * a[i] % p for i in range(1, len(a))])


def squarefree(f, p):
    """f monic; returns list of (squarefree factor, multiplicity), factors pairwise coprime."""
    out = []
    fp = deriv(f, p)
    if fp:
        c = gcd(f, fp, p)
        w = divmod_(f, c, p)[0]
        i = 1
        while len(w) > 1:
            y = gcd(w, c, p)
            fac = divmod_(w, y, p)[0]
            if len(fac) > 1:
                out.append((fac, i))
            i += 1
            w = y
            c = divmod_(c, y, p)[0]
        if len(c) > 1:
            root = c[::p]
            out += [(g, m * p) for g, m in squarefree(root, p)]
    else:
        root = f[::p]
        out += [(g, m * p) for g, m in squarefree(root, p)]
    return out


def distinct_degree(f, p):
    res = []
    h = [0, 1]
    i = 1
    while len(f) - 1 >= 2 * i:
        h = powmod(h, p, f, p)
        g = gcd(f, sub(h, [0, 1], p), p)
        if len(g) > 1:
            res.append((g, i))
            f = divmod_(f, g, p)[0]
            h = mod(h, f, p)
        i += 1
    if len(f) > 1:
        res.append((f, len(f) - 1))
    return res


def equal_degree(f, d, p):
    n = len(f) - 1
    if n == d:
        return [f]
    while True:
        a = trim([_rng.randrange(p) for _ in range(n)])
        if len(a) < 2:
            continue
        if p == 2:
            t = a[:]
            s = a[:]
            for _ in range(d - 1):
                t = mod(mul(t, t, p), f, p)
                s = add(s, t, p)
            b = s
        else:
            b = sub(powmod(a, (p ** d - 1) // 2, f, p), [1], p)
        g = gcd(f, b, p)
        if 1 < len(g) < len(f):
            return equal_degree(g, d, p) + equal_degree(divmod_(f, g, p)[0], d, p)


def factor(p, coeffs_high_first):
    f = trim([c % p for c in reversed(coeffs_high_first)])
    lc = f[-1]
    f = monic(f, p)
    result = []
    for g, m in squarefree(f, p):
        for h, d in distinct_degree(g, p):
            for irr in equal_degree(h, d, p):
                result.append((irr, m))
    result.sort(key=lambda t: (len(t[0]), t[0]))
    return lc, result


def main():
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        p = int(parts[0])
        lc, facs = factor(p, [int(x) for x in parts[1:]])
        items = [str(lc)] + ["(" + " ".join(str(c) for c in reversed(g)) + ")^" + str(m) for g, m in facs]
        print(" ".join(items))


if __name__ == "__main__":
    main()
PY
python3 /app/polyfactor.py < /app/data/examples.txt | diff - /app/data/examples.out && echo examples ok
