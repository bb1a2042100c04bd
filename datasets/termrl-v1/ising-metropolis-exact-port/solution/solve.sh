#!/bin/bash
# The sweeps in C through ctypes: the same generator, visiting order and draws (a uniform is drawn only
# when dE > 0), the same exp() from libm; argument handling and repr() output stay in Python.
set -euo pipefail
cat > /app/ising/ising_core.c <<'C'
/* Metropolis sweeps of ising.py in C: same generator, same visiting order, same draws. */
#include <math.h>
#include <stdint.h>

static uint64_t state;

static uint64_t next_u64(void)
{
    uint64_t x = state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static uint64_t seed_state(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 0x9E3779B97F4A7C15ULL;
}

/* spins: n*n, row-major; energies/mags: one slot per recorded sweep */
void ising_run(int n, long sweeps, double beta, double h, long every, uint64_t seed, signed char *spins,
               double *energies, long *mags)
{
    long sweep, rec = 0;
    int i, j;
    state = seed_state(seed);
    for (i = 0; i < n * n; i++)
        spins[i] = (next_u64() >> 63) ? 1 : -1;
    for (sweep = 1; sweep <= sweeps; sweep++) {
        for (i = 0; i < n; i++) {
            signed char *up = spins + ((i - 1 + n) % n) * n, *row = spins + i * n,
                        *down = spins + ((i + 1) % n) * n;
            for (j = 0; j < n; j++) {
                int s = row[j];
                int nb = up[j] + down[j] + row[(j - 1 + n) % n] + row[(j + 1) % n];
                double de = (double)(2 * s) * ((double)nb + h);
                if (de <= 0) {
                    row[j] = (signed char)-s;
                } else {
                    double u = (double)(next_u64() >> 11) * (1.0 / 9007199254740992.0);
                    if (u < exp(-beta * de))
                        row[j] = (signed char)-s;
                }
            }
        }
        if (sweep % every == 0) {
            long bonds = 0, mag = 0;
            for (i = 0; i < n; i++)
                for (j = 0; j < n; j++) {
                    int s = spins[i * n + j];
                    bonds += s * (spins[i * n + (j + 1) % n] + spins[((i + 1) % n) * n + j]);
                    mag += s;
                }
            energies[rec] = (double)(-bonds) - h * (double)mag;
            mags[rec] = mag;
            rec++;
        }
    }
}
C
gcc -O2 -fPIC -shared -o /app/ising/libising_core.so /app/ising/ising_core.c -lm
cat > /app/ising/ising.py <<'PY'
#!/usr/bin/env python3
"""Metropolis simulation of the 2-D Ising model; the sweeps run in C (ising_core.c through ctypes).
usage: ising.py L SWEEPS BETA SEED OUT.txt [--field H] [--every K]"""
import ctypes
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    d = HERE
    lib = os.path.join(d, "libising_core.so")
    if not os.path.exists(lib):
        subprocess.run(["gcc", "-O2", "-fPIC", "-shared", "-o", lib, os.path.join(HERE, "ising_core.c"), "-lm"],
                       check=True)
    so = ctypes.CDLL(lib)
    so.ising_run.argtypes = [ctypes.c_int, ctypes.c_long, ctypes.c_double, ctypes.c_double, ctypes.c_long,
                             ctypes.c_uint64, ctypes.c_char_p, ctypes.POINTER(ctypes.c_double),
                             ctypes.POINTER(ctypes.c_long)]
    return so


def parse_args(argv):
    opts = {"--field": 0.0, "--every": 10}
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] in opts:
            if i + 1 >= len(argv):
                sys.exit(f"ising.py: {argv[i]} needs a value")
            opts[argv[i]] = float(argv[i + 1]) if argv[i] == "--field" else int(argv[i + 1])
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    if len(pos) != 5:
        sys.exit("usage: ising.py L SWEEPS BETA SEED OUT.txt [--field H] [--every K]")
    size, sweeps, beta, seed = int(pos[0]), int(pos[1]), float(pos[2]), int(pos[3])
    if size < 2 or sweeps < 0 or opts["--every"] < 1 or not 0 <= seed < 2 ** 64:
        sys.exit("ising.py: need L >= 2, SWEEPS >= 0, K >= 1 and 0 <= SEED < 2**64")
    return size, sweeps, beta, seed, pos[4], opts["--field"], opts["--every"]


def main():
    n, sweeps, beta, seed, out, h, every = parse_args(sys.argv[1:])
    so = load()
    recs = sweeps // every
    spins = ctypes.create_string_buffer(n * n)
    energies = (ctypes.c_double * max(recs, 1))()
    mags = (ctypes.c_long * max(recs, 1))()
    so.ising_run(n, sweeps, beta, h, every, seed, spins, energies, mags)
    lines = [f"{(k + 1) * every} {energies[k]!r} {mags[k]}\n" for k in range(recs)]
    raw = spins.raw
    for i in range(n):
        lines.append("".join("+" if b == 1 else "-" for b in raw[i * n:(i + 1) * n]) + "\n")
    with open(out, "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
PY
