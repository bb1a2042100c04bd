#!/bin/bash
set -euo pipefail
# Mistake: finds the roots numerically (Durand-Kerner in complex floating point), keeps the nearly
# real ones, merges near-equal values into one root with a multiplicity, and prints a tiny rational
# interval around each. Fine for tame polynomials, wrong for close, huge or multiple roots.
cat > /app/roots.py <<'PY'
import sys
from fractions import Fraction


def all_roots(coeffs):
    lead = coeffs[0]
    a = [c / lead for c in coeffs]
    n = len(a) - 1
    z = [complex(0.4, 0.9) ** k for k in range(n)]
    for _ in range(500):
        new = []
        for i in range(n):
            num = 0j
            for c in a:
                num = num * z[i] + c
            den = 1 + 0j
            for j in range(n):
                if j != i:
                    den *= z[i] - z[j]
            new.append(z[i] - num / den if den != 0 else z[i] + 1e-9)
        z = new
    return z


def main():
    for line in open(sys.argv[1]):
        parts = line.split()
        if not parts:
            continue
        coeffs = [int(t) for t in parts]
        try:
            roots = sorted(r.real for r in all_roots([float(c) for c in coeffs]) if abs(r.imag) < 1e-7 * max(1, abs(r)))
        except (OverflowError, ZeroDivisionError):
            roots = []
        groups = []
        for r in roots:
            if groups and abs(r - groups[-1][0]) < 1e-6 * max(1, abs(r)):
                groups[-1][1] += 1
            else:
                groups.append([r, 1])
        out = [str(len(groups))]
        for r, m in groups:
            c = Fraction(r).limit_denominator(10 ** 15)
            e = Fraction(1, 10 ** 13)
            a, b = c - e, c + e
            out += [f"{a.numerator}/{a.denominator}", f"{b.numerator}/{b.denominator}", str(m)]
        print(" ".join(out))


main()
PY
