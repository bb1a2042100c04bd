#!/bin/bash
# Mistakes: orders the blocked points by x only and does not drop points outside the grid.
set -euo pipefail
cat > /app/paths.py <<'PY'
import sys

MOD = 998244353


def main():
    vals = list(map(int, open(sys.argv[1]).read().split()))
    W, H, K = vals[0], vals[1], vals[2]
    pts = [(vals[3 + 2 * i], vals[4 + 2 * i]) for i in range(K)]
    n = W + H
    fact = [1] * (n + 1)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i % MOD
    inv = [pow(f, MOD - 2, MOD) for f in fact] if n < 5000 else None
    if inv is None:
        inv = [1] * (n + 1)
        inv[n] = pow(fact[n], MOD - 2, MOD)
        for i in range(n, 0, -1):
            inv[i - 1] = inv[i] * i % MOD

    def paths(dx, dy):
        if dx < 0 or dy < 0 or dx + dy > n:
            return 0
        return fact[dx + dy] * inv[dx] % MOD * inv[dy] % MOD

    pts.sort(key=lambda p: p[0])
    f = []
    for i, (x, y) in enumerate(pts):
        v = paths(x, y)
        for j in range(i):
            px, py = pts[j]
            v -= f[j] * paths(x - px, y - py)
        f.append(v % MOD)
    ans = paths(W, H)
    for (x, y), v in zip(pts, f):
        ans -= v * paths(W - x, H - y)
    print(ans % MOD)


main()
PY
