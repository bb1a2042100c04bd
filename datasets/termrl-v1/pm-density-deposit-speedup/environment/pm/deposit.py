#!/usr/bin/env python3
"""Cloud-in-cell mass deposit for the particle-mesh pipeline.

usage: deposit.py PARTICLES.bin OUT.txt [--cells N] [--box L] [--threshold T]

PARTICLES.bin holds records of three little-endian float64 values (x, y, mass), nothing else.
The box [0, L) x [0, L) is periodic: positions outside it wrap around.  The mesh has N x N
cells of side h = L / N; every particle spreads its mass over the four cells around it with
cloud-in-cell weights.  Then the mesh density is interpolated back to every particle with the
same weights.

OUT.txt:
    particles <count>
    total_mass <sum of the mesh, cells in row-major order>
    peak <largest cell mass> <i> <j>           (the first such cell in row-major order)
    gathered_sum <sum of the interpolated densities, particles in file order>
    dense <number of particles whose interpolated density exceeds T times the mean cell density>
    force_sum <sum of x forces> <sum of y forces>          (particles in file order)
    max_force <largest |fx| + |fy|> <particle index>       (the first such particle in file order)
    then one line "<i> <j> <mass>" per cell with a non-zero mass, row-major order.
Floats are written with repr().  Defaults: N = 256, L = 1.0, T = 4.0.
"""
import math
import struct
import sys


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
        sys.exit(__doc__)
    if args["cells"] < 2:
        sys.exit("deposit.py: --cells must be at least 2")
    if not args["box"] > 0:
        sys.exit("deposit.py: --box must be positive")
    return pos[0], pos[1], args


def read_particles(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) % 24:
        sys.exit(f"deposit.py: {path}: size {len(data)} is not a multiple of 24")
    return list(struct.iter_unpack("<3d", data))


def cic(x, y, h, n):
    fx = x / h
    fy = y / h
    i = math.floor(fx)
    j = math.floor(fy)
    dx = fx - i
    dy = fy - j
    i0 = i % n
    j0 = j % n
    i1 = (i + 1) % n
    j1 = (j + 1) % n
    return i0, j0, i1, j1, dx, dy


def main():
    src, out, args = parse_args(sys.argv[1:])
    n, box = args["cells"], args["box"]
    h = box / n
    particles = read_particles(src)

    mesh = [[0.0] * n for _ in range(n)]
    for x, y, m in particles:
        i0, j0, i1, j1, dx, dy = cic(x, y, h, n)
        mesh[i0][j0] += m * (1 - dx) * (1 - dy)
        mesh[i1][j0] += m * dx * (1 - dy)
        mesh[i0][j1] += m * (1 - dx) * dy
        mesh[i1][j1] += m * dx * dy

    total = 0.0
    peak, pi, pj = None, 0, 0
    for i in range(n):
        for j in range(n):
            v = mesh[i][j]
            total += v
            if peak is None or v > peak:
                peak, pi, pj = v, i, j

    area = h * h
    gathered_sum = 0.0
    gathered = []
    for x, y, m in particles:
        i0, j0, i1, j1, dx, dy = cic(x, y, h, n)
        rho = ((1 - dx) * (1 - dy) * mesh[i0][j0] + dx * (1 - dy) * mesh[i1][j0]
               + (1 - dx) * dy * mesh[i0][j1] + dx * dy * mesh[i1][j1]) / area
        gathered.append(rho)
        gathered_sum += rho

    gx = [[0.0] * n for _ in range(n)]
    gy = [[0.0] * n for _ in range(n)]
    two_h = 2 * h
    for i in range(n):
        for j in range(n):
            gx[i][j] = (mesh[(i + 1) % n][j] - mesh[(i - 1) % n][j]) / two_h / area
            gy[i][j] = (mesh[i][(j + 1) % n] - mesh[i][(j - 1) % n]) / two_h / area
    fsx = 0.0
    fsy = 0.0
    fmax, fmax_at = None, -1
    for k, (x, y, m) in enumerate(particles):
        i0, j0, i1, j1, dx, dy = cic(x, y, h, n)
        fx = -((1 - dx) * (1 - dy) * gx[i0][j0] + dx * (1 - dy) * gx[i1][j0]
               + (1 - dx) * dy * gx[i0][j1] + dx * dy * gx[i1][j1])
        fy = -((1 - dx) * (1 - dy) * gy[i0][j0] + dx * (1 - dy) * gy[i1][j0]
               + (1 - dx) * dy * gy[i0][j1] + dx * dy * gy[i1][j1])
        fsx += fx
        fsy += fy
        size = abs(fx) + abs(fy)
        if fmax is None or size > fmax:
            fmax, fmax_at = size, k

    mean_density = total / (n * n) / area
    limit = args["threshold"] * mean_density
    dense = 0
    for rho in gathered:
        if rho > limit:
            dense += 1

    with open(out, "w") as f:
        f.write(f"particles {len(particles)}\n")
        f.write(f"total_mass {total!r}\n")
        f.write(f"peak {peak!r} {pi} {pj}\n")
        f.write(f"gathered_sum {gathered_sum!r}\n")
        f.write(f"dense {dense}\n")
        f.write(f"force_sum {fsx!r} {fsy!r}\n")
        f.write(f"max_force {fmax!r} {fmax_at}\n")
        for i in range(n):
            row = mesh[i]
            for j in range(n):
                if row[j] != 0.0:
                    f.write(f"{i} {j} {row[j]!r}\n")


if __name__ == "__main__":
    main()
