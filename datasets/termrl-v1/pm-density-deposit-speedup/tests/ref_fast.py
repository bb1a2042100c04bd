#!/usr/bin/env python3
"""The tests' fast reference: deposit.py's arithmetic, vectorised without changing any rounding.

Every cell receives its contributions in particle order (bincount adds sequentially in input order,
the four corners of a particle interleaved), products are formed in the original's left-to-right
order, and the running sums are sequential (cumulative sums starting from 0.0)."""
import sys

import numpy as np


def parse_args(argv):
    args = {"cells": 256, "box": 1.0, "threshold": 4.0}
    pos = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--cells", "--box", "--threshold"):
            if i + 1 >= len(argv):
                sys.exit(f"deposit.py: {a} needs a value")
            v = argv[i + 1]
            args[a[2:]] = int(v) if a == "--cells" else float(v)
            i += 2
        else:
            pos.append(a)
            i += 1
    if len(pos) != 2:
        sys.exit("usage: deposit.py PARTICLES.bin OUT.txt [--cells N] [--box L] [--threshold T]")
    if args["cells"] < 2:
        sys.exit("deposit.py: --cells must be at least 2")
    if not args["box"] > 0:
        sys.exit("deposit.py: --box must be positive")
    return pos[0], pos[1], args


def seqsum(a):
    # the original starts from 0.0: that turns a leading -0.0 into 0.0
    return float(np.cumsum(np.concatenate(([0.0], a)))[-1])


def main():
    src, out, args = parse_args(sys.argv[1:])
    n, box = args["cells"], args["box"]
    h = box / n
    raw = open(src, "rb").read()
    if len(raw) % 24:
        sys.exit(f"deposit.py: {src}: size {len(raw)} is not a multiple of 24")
    p = np.frombuffer(raw, dtype="<f8").reshape(-1, 3)
    x, y, m = p[:, 0], p[:, 1], p[:, 2]
    fx = x / h
    fy = y / h
    fi = np.floor(fx)
    fj = np.floor(fy)
    dx = fx - fi
    dy = fy - fj
    i0 = np.mod(fi, n).astype(np.int64)
    j0 = np.mod(fj, n).astype(np.int64)
    i1 = (i0 + 1) % n
    j1 = (j0 + 1) % n
    ex, ey = 1 - dx, 1 - dy
    idx = np.stack([i0 * n + j0, i1 * n + j0, i0 * n + j1, i1 * n + j1], axis=1).ravel()
    w = np.stack([m * ex * ey, m * dx * ey, m * ex * dy, m * dx * dy], axis=1).ravel()
    mesh = np.bincount(idx, weights=w, minlength=n * n)
    total = seqsum(mesh)
    k = int(np.argmax(mesh))
    peak = float(mesh[k])
    area = h * h
    rho = (ex * ey * mesh[i0 * n + j0] + dx * ey * mesh[i1 * n + j0]
           + ex * dy * mesh[i0 * n + j1] + dx * dy * mesh[i1 * n + j1]) / area
    gathered_sum = seqsum(rho)
    limit = args["threshold"] * (total / (n * n) / area)
    dense = int(np.count_nonzero(rho > limit))
    g = mesh.reshape(n, n)
    gx = ((np.roll(g, -1, axis=0) - np.roll(g, 1, axis=0)) / (2 * h) / area).ravel()
    gy = ((np.roll(g, -1, axis=1) - np.roll(g, 1, axis=1)) / (2 * h) / area).ravel()
    c00, c10, c01, c11 = i0 * n + j0, i1 * n + j0, i0 * n + j1, i1 * n + j1
    w00, w10, w01, w11 = ex * ey, dx * ey, ex * dy, dx * dy
    fx = -(w00 * gx[c00] + w10 * gx[c10] + w01 * gx[c01] + w11 * gx[c11])
    fy = -(w00 * gy[c00] + w10 * gy[c10] + w01 * gy[c01] + w11 * gy[c11])
    size = np.abs(fx) + np.abs(fy)
    if len(size):
        at = int(np.argmax(size))
        fmax = repr(float(size[at]))
    else:
        at, fmax = -1, "None"
    nz = np.flatnonzero(mesh)
    lines = [f"particles {len(x)}\n", f"total_mass {total!r}\n", f"peak {peak!r} {k // n} {k % n}\n",
             f"gathered_sum {gathered_sum!r}\n", f"dense {dense}\n",
             f"force_sum {seqsum(fx)!r} {seqsum(fy)!r}\n", f"max_force {fmax} {at}\n"]
    lines += [f"{c // n} {c % n} {v!r}\n" for c, v in zip(nz.tolist(), mesh[nz].tolist())]
    with open(out, "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
