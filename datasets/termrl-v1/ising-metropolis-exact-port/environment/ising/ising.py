#!/usr/bin/env python3
"""Metropolis simulation of the 2-D Ising model (periodic L x L lattice, J = 1).

usage: ising.py L SWEEPS BETA SEED OUT.txt [--field H] [--every K]

Random numbers: xorshift64* seeded through splitmix64 (see Rng); a uniform number is the top 53
bits of an output divided by 2**53.  The initial lattice takes one output per site, row by row:
spin +1 when the top bit is set, else -1.  A sweep visits the sites row by row, left to right;
at each site dE = 2 * s * (sum of the four neighbours + H); the spin flips when dE <= 0, or when
a fresh uniform u (drawn only in that case) satisfies u < exp(-BETA * dE).

OUT.txt: after every K-th sweep (and never after sweep 0) a line "<sweep> <energy> <magnetisation>"
with energy = -(sum over right and down bonds of s * s') - H * magnetisation, written with repr();
then the final lattice, one row per line, '+' and '-'.  Defaults: H = 0.0, K = 10.
"""
import math
import sys

MASK = (1 << 64) - 1


class Rng:
    def __init__(self, seed):
        z = (seed + 0x9E3779B97F4A7C15) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        self.x = z or 0x9E3779B97F4A7C15

    def next(self):
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & MASK
        x ^= x >> 27
        self.x = x
        return (x * 0x2545F4914F6CDD1D) & MASK

    def uniform(self):
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)


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
        sys.exit(__doc__)
    size, sweeps, beta, seed = int(pos[0]), int(pos[1]), float(pos[2]), int(pos[3])
    if size < 2 or sweeps < 0 or opts["--every"] < 1 or not 0 <= seed < 2 ** 64:
        sys.exit("ising.py: need L >= 2, SWEEPS >= 0, K >= 1 and 0 <= SEED < 2**64")
    return size, sweeps, beta, seed, pos[4], opts["--field"], opts["--every"]


def energy(spins, n, h):
    bonds = 0
    mag = 0
    for i in range(n):
        for j in range(n):
            s = spins[i][j]
            bonds += s * (spins[i][(j + 1) % n] + spins[(i + 1) % n][j])
            mag += s
    return -bonds - h * mag, mag


def main():
    n, sweeps, beta, seed, out, h, every = parse_args(sys.argv[1:])
    rng = Rng(seed)
    spins = [[1 if rng.next() >> 63 else -1 for _ in range(n)] for _ in range(n)]
    lines = []
    for sweep in range(1, sweeps + 1):
        for i in range(n):
            up = spins[(i - 1) % n]
            row = spins[i]
            down = spins[(i + 1) % n]
            for j in range(n):
                s = row[j]
                nb = up[j] + down[j] + row[(j - 1) % n] + row[(j + 1) % n]
                de = 2 * s * (nb + h)
                if de <= 0:
                    row[j] = -s
                elif rng.uniform() < math.exp(-beta * de):
                    row[j] = -s
        if sweep % every == 0:
            e, m = energy(spins, n, h)
            lines.append(f"{sweep} {e!r} {m}\n")
    with open(out, "w") as f:
        f.writelines(lines)
        for row in spins:
            f.write("".join("+" if s > 0 else "-" for s in row) + "\n")


if __name__ == "__main__":
    main()
