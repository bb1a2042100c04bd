#!/bin/bash
# Plausible but wrong: the port assumes substitution matrices are symmetric and looks scores up as
# matrix[target letter][query letter]; a matrix given with --matrix need not be symmetric.
set -euo pipefail
bash /solution/solve.sh
cd /app/align
sed -i 's/const int \*row = sc + a\[i - 1\] \* k;/const int ai = a[i - 1];/; s/row\[b\[j - 1\]\]/sc[b[j - 1] * k + ai]/' gotoh.c
grep -q 'sc\[b\[j - 1\] \* k + ai\]' gotoh.c
gcc -O2 -shared -fPIC -o libgotoh.so gotoh.c
