#!/bin/bash
# Plausible but wrong: the right port, built the "fast" way with -O3 -march=native. On a CPU with FMA, gcc
# contracts `a + h2 * f` into one fused multiply-add (one rounding instead of two), so the iterates drift
# from the original's in the last bits. (The image's CPU has FMA.)
set -euo pipefail
bash /solution/solve.sh
cd /app/poisson
gcc -O3 -march=native -shared -fPIC -o libsor.so sor.c
