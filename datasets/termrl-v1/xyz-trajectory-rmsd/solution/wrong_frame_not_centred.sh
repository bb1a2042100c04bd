#!/bin/bash
set -euo pipefail
# Mistake: centres frame 0 but not the other frames before the rotation fit.
cat > /app/trajrmsd.py <<'PY'
import math
import sys


def fail(msg):
    print(f"trajrmsd: {msg}", file=sys.stderr)
    sys.exit(2)


def read_frames(path):
    with open(path) as fh:
        lines = fh.read().split("\n")
    frames, i = [], 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        try:
            n = int(lines[i].split()[0])
        except ValueError:
            fail(f"line {i + 1}: expected an atom count")
        if i + 2 + n > len(lines):
            fail("truncated frame")
        atoms = []
        for line in lines[i + 2:i + 2 + n]:
            f = line.split()
            if len(f) < 4:
                fail("truncated atom line")
            atoms.append((f[0], float(f[1]), float(f[2]), float(f[3])))
        frames.append(atoms)
        i += 2 + n
    if not frames:
        fail("no frames")
    return frames


def jacobi_max_eig(A):
    """Largest eigenvalue of a symmetric matrix by cyclic Jacobi rotations."""
    n = len(A)
    A = [row[:] for row in A]
    for _ in range(100):
        off = sum(A[i][j] ** 2 for i in range(n) for j in range(n) if i != j)
        if off < 1e-30 * (1 + sum(A[i][i] ** 2 for i in range(n))):
            break
        for p in range(n):
            for q in range(p + 1, n):
                if abs(A[p][q]) < 1e-300:
                    continue
                theta = (A[q][q] - A[p][p]) / (2 * A[p][q])
                t = (1 if theta >= 0 else -1) / (abs(theta) + math.sqrt(theta * theta + 1))
                c = 1 / math.sqrt(t * t + 1)
                s = t * c
                for k in range(n):
                    akp, akq = A[k][p], A[k][q]
                    A[k][p], A[k][q] = c * akp - s * akq, s * akp + c * akq
                for k in range(n):
                    apk, aqk = A[p][k], A[q][k]
                    A[p][k], A[q][k] = c * apk - s * aqk, s * apk + c * aqk
    return max(A[i][i] for i in range(n))


def centred(pts):
    m = len(pts)
    c = [sum(p[k] for p in pts) / m for k in range(3)]
    return [[p[k] - c[k] for k in range(3)] for p in pts]


def rmsd(P, Q):
    """Horn's quaternion method: minimal RMSD over proper rotations of centred point sets."""
    S = [[sum(p[a] * q[b] for p, q in zip(P, Q)) for b in range(3)] for a in range(3)]
    (xx, xy, xz), (yx, yy, yz), (zx, zy, zz) = S
    N = [[xx + yy + zz, yz - zy, zx - xz, xy - yx],
         [yz - zy, xx - yy - zz, xy + yx, zx + xz],
         [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
         [xy - yx, zx + xz, yz + zy, -xx - yy + zz]]
    lam = jacobi_max_eig(N)
    g = sum(v * v for p in P for v in p) + sum(v * v for q in Q for v in q)
    return math.sqrt(max(0.0, (g - 2 * lam) / len(P)))


def main():
    args = sys.argv[1:]
    elem = None
    if "--element" in args:
        k = args.index("--element")
        if k + 1 >= len(args):
            fail("--element needs a value")
        elem = args[k + 1]
        del args[k:k + 2]
    if len(args) != 1:
        fail("usage: trajrmsd.py TRAJ.xyz [--element E]")
    frames = read_frames(args[0])
    names = [a[0] for a in frames[0]]
    for f in frames[1:]:
        if [a[0] for a in f] != names:
            fail("frames differ in atoms")
    sel = [i for i, nm in enumerate(names) if elem is None or nm == elem]
    if not sel:
        fail(f"no atoms of element {elem}")
    Q = centred([frames[0][i][1:] for i in sel])
    out = []
    for idx, f in enumerate(frames):
        P = [list(f[i][1:]) for i in sel] if idx else centred([f[i][1:] for i in sel])
        rg = math.sqrt(sum(v * v for p in P for v in p) / len(P))
        out.append(f"{idx} {rmsd(P, Q)!r} {rg!r}")
    print("\n".join(out))


main()
PY
