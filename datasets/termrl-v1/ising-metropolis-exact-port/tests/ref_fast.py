#!/usr/bin/env python3
"""ising.py with its sweeps in C (ref_core.c through ctypes); argument handling and output as ising.py.
The shared library is built next to this file on first use, or where ISING_LIB_DIR points."""
import ctypes
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    d = os.environ.get("ISING_LIB_DIR", HERE)
    lib = os.path.join(d, "libising_core.so")
    if not os.path.exists(lib):
        subprocess.run(["gcc", "-O2", "-fPIC", "-shared", "-o", lib, os.path.join(HERE, "ref_core.c"), "-lm"],
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
