#!/bin/bash
set -euo pipefail
cat > /app/paths.py <<'PY'
import sys

MOD = 998244353


def main():
    data = sys.stdin.buffer.read() if len(sys.argv) < 2 else open(sys.argv[1], "rb").read()
    vals = list(map(int, data.split()))
    W, H, K = vals[0], vals[1], vals[2]
    pts = set()
    for i in range(K):
        x, y = vals[3 + 2 * i], vals[4 + 2 * i]
        if 0 <= x <= W and 0 <= y <= H:
            pts.add((x, y))
    if (0, 0) in pts or (W, H) in pts:
        print(0)
        return
    n = W + H
    fact = [1] * (n + 1)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i % MOD
    inv = [1] * (n + 1)
    inv[n] = pow(fact[n], MOD - 2, MOD)
    for i in range(n, 0, -1):
        inv[i - 1] = inv[i] * i % MOD

    def paths(dx, dy):
        if dx < 0 or dy < 0:
            return 0
        return fact[dx + dy] * inv[dx] % MOD * inv[dy] % MOD

    pts = sorted(pts)
    f = []
    for i, (x, y) in enumerate(pts):
        v = paths(x, y)
        for j in range(i):
            px, py = pts[j]
            if px <= x and py <= y:
                v -= f[j] * fact[x - px + y - py] % MOD * inv[x - px] % MOD * inv[y - py]
        f.append(v % MOD)
    ans = paths(W, H)
    for (x, y), v in zip(pts, f):
        ans -= v * paths(W - x, H - y)
    print(ans % MOD)


main()
PY
for f in /app/examples/*.txt; do echo "$f: $(python3 /app/paths.py "$f")"; done
