#!/bin/bash
# Mistake: also allows splitting into two equal heaps.
set -euo pipefail
bash_src=$(cat <<'PY'
import sys


def grundy_table(n):
    g = [0] * (n + 1)
    squares = [k * k for k in range(1, int(n ** 0.5) + 2)]
    for h in range(1, n + 1):
        seen = set()
        for s in squares:
            if s > h:
                break
            seen.add(g[h - s])
        for a in range((h + 1) // 2, h):
            seen.add(g[a] ^ g[h - a])
        m = 0
        while m in seen:
            m += 1
        g[h] = m
    return g


lines = [[int(x) for x in l.split()] for l in open(sys.argv[1]) if l.strip()]
g = grundy_table(1500)
for heaps in lines:
    total = 0
    for h in heaps:
        total ^= g[h]
    if total == 0:
        print("SECOND")
        continue
    out = None
    for i, h in enumerate(heaps):
        t = total ^ g[h]
        for k in range(1, int(h ** 0.5) + 1):
            if g[h - k * k] == t:
                out = f"FIRST {i + 1} {h - k * k} 0"
                break
        if out is None:
            for a in range((h + 1) // 2, h):
                if g[a] ^ g[h - a] == t:
                    out = f"FIRST {i + 1} {a} {h - a}"
                    break
        if out:
            break
    print(out)
PY
)
printf '%s\n' "$bash_src" > /app/game.py
