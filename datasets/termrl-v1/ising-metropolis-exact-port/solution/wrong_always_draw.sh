#!/bin/bash
# Plausible but wrong: the C port draws a uniform for every site (the textbook form
# "flip if u < min(1, exp(-beta dE))"), so the generator runs ahead of the original's as soon as a
# downhill or neutral move happens and the trajectories part.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ising/ising_core.c"
s = open(p).read()
old = """                if (de <= 0) {
                    row[j] = (signed char)-s;
                } else {
                    double u = (double)(next_u64() >> 11) * (1.0 / 9007199254740992.0);
                    if (u < exp(-beta * de))
                        row[j] = (signed char)-s;
                }"""
new = """                double u = (double)(next_u64() >> 11) * (1.0 / 9007199254740992.0);
                if (de <= 0 || u < exp(-beta * de))
                    row[j] = (signed char)-s;"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
gcc -O2 -fPIC -shared -o /app/ising/libising_core.so /app/ising/ising_core.c -lm
