#!/bin/bash
# Plausible but wrong: F is right, but the gap count uses the two-coin symmetry (exactly half of 0..F),
# which fails for three or more coins.
# dist[r] = the smallest payable amount congruent to r modulo the smallest coin a (shortest paths over
# residues, computed with the round-robin algorithm).
# Then F = max(dist) - a and the gaps are sum(dist[r] // a): the amounts r, r+a, ..., dist[r]-a.
set -euo pipefail
cat > /app/frobenius <<'PY'
#!/usr/bin/env python3
import math
import sys


def main():
    args = sys.argv[1:]
    if not 2 <= len(args) <= 8 or not all(a.isascii() and a.isdigit() for a in args):
        print("usage: frobenius A1 A2 ... (2 to 8 integers 1..10^6)", file=sys.stderr)
        sys.exit(2)
    coins = sorted(set(int(a) for a in args))
    if any(not 1 <= c <= 10 ** 6 for c in coins):
        print("frobenius: values must be between 1 and 10^6", file=sys.stderr)
        sys.exit(2)
    if math.gcd(*coins) != 1:
        print("infinite")
        return
    a = coins[0]
    if a == 1:
        print("frobenius -1\ngaps 0")
        return
    # round robin (Boecker & Liptak): add one coin b at a time; within each residue class mod gcd(a, b)
    # walk the cycle r -> r + b (mod a) once, starting at the class's smallest entry
    inf = float("inf")
    dist = [inf] * a
    dist[0] = 0
    for b in coins[1:]:
        d = math.gcd(a, b)
        for p in range(d):
            q = min(range(p, a, d), key=dist.__getitem__)
            if dist[q] == inf:
                continue
            for _ in range(a // d):
                v = dist[q] + b
                r = v % a
                if v < dist[r]:
                    dist[r] = v
                q = r
    print(f"frobenius {max(dist) - a}")
    print(f"gaps {(max(dist) - a + 1) // 2}")  # half of 0..F, as for two coins


main()
PY
chmod +x /app/frobenius
