#!/bin/bash
set -euo pipefail
cat > /app/modsqrt.py <<'PY'
import sys


def sqrt_mod(a, p):
    a %= p
    if a == 0:
        return [0]
    if p == 2:
        return [a]
    if pow(a, (p - 1) // 2, p) != 1:
        return []
    # Tonelli-Shanks
    q, s = p - 1, 0
    while q % 2 == 0:
        q //= 2
        s += 1
    z = 2
    while pow(z, (p - 1) // 2, p) != p - 1:
        z += 1
    m, c, t, r = s, pow(z, q, p), pow(a, q, p), pow(a, (q + 1) // 2, p)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2 = t2 * t2 % p
            i += 1
        b = pow(c, 1 << (m - i - 1), p)
        m, c = i, b * b % p
        t, r = t * c % p, r * b % p
    return sorted({r, p - r})


def main():
    out = []
    for line in open(sys.argv[1]):
        parts = line.split()
        if len(parts) != 2:
            continue
        a, p = int(parts[0]), int(parts[1])
        roots = sqrt_mod(a, p)
        out.append(" ".join(map(str, roots)) if roots else "NONE")
    print("\n".join(out))


main()
PY
python3 /app/modsqrt.py /app/queries.txt
