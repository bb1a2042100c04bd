#!/bin/bash
# Plausible but wrong: the C port keeps the best cell with `>=`, as many textbook implementations do, so
# when two cells reach the best score it reports the last one instead of the first.
set -euo pipefail
bash /solution/solve.sh
cd /app/align
sed -i 's/if (h > best)/if (h >= best \&\& h > 0)/' gotoh.c
gcc -O2 -shared -fPIC -o libgotoh.so gotoh.c
