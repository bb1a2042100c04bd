#!/bin/bash
# Plausible but too slow: the usual pure-Python tuning (a flat list, neighbour tables, the five possible
# exp() values cached per run, local variables, the generator inlined). The output is right; it is
# ~2-3x faster than the original, far from the bar.
set -euo pipefail
python3 - <<'PY'
p = "/app/ising/ising.py"
s = open(p).read()
start = s.index("    rng = Rng(seed)\n")
end = s.index("    with open(out, \"w\") as f:\n")
fast = '''    rng = Rng(seed)
    spins = [[1 if rng.next() >> 63 else -1 for _ in range(n)] for _ in range(n)]
    flat = [s for row in spins for s in row]
    up = [((k // n - 1) % n) * n + k % n for k in range(n * n)]
    down = [((k // n + 1) % n) * n + k % n for k in range(n * n)]
    left = [(k // n) * n + (k % n - 1) % n for k in range(n * n)]
    right = [(k // n) * n + (k % n + 1) % n for k in range(n * n)]
    cache = {}
    x = rng.x
    lines = []
    exp = math.exp
    for sweep in range(1, sweeps + 1):
        for k in range(n * n):
            s = flat[k]
            nb = flat[up[k]] + flat[down[k]] + flat[left[k]] + flat[right[k]]
            de = 2 * s * (nb + h)
            if de <= 0:
                flat[k] = -s
            else:
                x ^= x >> 12
                x ^= (x << 25) & MASK
                x ^= x >> 27
                u = (((x * 0x2545F4914F6CDD1D) & MASK) >> 11) * (1.0 / 9007199254740992.0)
                p = cache.get(de)
                if p is None:
                    p = cache[de] = exp(-beta * de)
                if u < p:
                    flat[k] = -s
        if sweep % every == 0:
            spins = [flat[i * n:(i + 1) * n] for i in range(n)]
            e, m = energy(spins, n, h)
            lines.append(f"{sweep} {e!r} {m}\\n")
    spins = [flat[i * n:(i + 1) * n] for i in range(n)]
'''
open(p, "w").write(s[:start] + fast + s[end:])
PY
