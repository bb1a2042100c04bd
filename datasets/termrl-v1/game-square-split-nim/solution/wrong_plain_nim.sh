#!/bin/bash
# Mistake: treats the game like ordinary Nim (XOR of heap sizes).
set -euo pipefail
cat > /app/game.py <<'PY'
import sys

for line in open(sys.argv[1]):
    heaps = [int(x) for x in line.split()]
    if not heaps:
        continue
    x = 0
    for h in heaps:
        x ^= h
    if x == 0:
        print("SECOND")
        continue
    for i, h in enumerate(heaps):
        if h ^ x < h:
            print(f"FIRST {i + 1} {h ^ x} 0")
            break
PY
