#!/bin/bash
set -euo pipefail
cat > /app/crt.py <<'PY'
import sys
from math import gcd


def combine(r1, m1, r2, m2):
    g = gcd(m1, m2)
    if (r2 - r1) % g:
        return None
    l = m1 // g * m2
    # solve r1 + m1 * t = r2 (mod m2)  ->  (m1/g) t = (r2-r1)/g (mod m2/g)
    m2g = m2 // g
    t = ((r2 - r1) // g) * pow(m1 // g, -1, m2g) % m2g if m2g > 1 else 0
    return (r1 + m1 * t) % l, l


def main():
    for line in open(sys.argv[1]):
        vals = [int(v) for v in line.split()]
        if not vals:
            continue
        r, m = 0, 1
        ok = True
        for i in range(0, len(vals), 2):
            res = combine(r, m, vals[i] % vals[i + 1], vals[i + 1])
            if res is None:
                ok = False
                break
            r, m = res
        print(f"{r} {m}" if ok else "NONE")


main()
PY
python3 /app/crt.py /app/systems.txt
