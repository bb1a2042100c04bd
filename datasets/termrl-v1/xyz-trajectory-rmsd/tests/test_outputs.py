import math
import os
import random
import subprocess
import tempfile

PROG = "/app/trajrmsd.py"
ELEMS = ["C", "C", "C", "N", "O", "H", "H", "S"]


# ---------- reference: Horn's quaternion with its eigenvector, then the RMSD of the rotated frame ----------
def jacobi(A):
    n = len(A)
    A = [r[:] for r in A]
    V = [[float(i == j) for j in range(n)] for i in range(n)]
    for _ in range(200):
        off = max(abs(A[i][j]) for i in range(n) for j in range(n) if i != j)
        if off < 1e-15:
            break
        for p in range(n):
            for q in range(p + 1, n):
                if A[p][q] == 0:
                    continue
                th = 0.5 * math.atan2(2 * A[p][q], A[q][q] - A[p][p])
                c, s = math.cos(th), math.sin(th)
                for k in range(n):
                    A[k][p], A[k][q] = c * A[k][p] - s * A[k][q], s * A[k][p] + c * A[k][q]
                for k in range(n):
                    A[p][k], A[q][k] = c * A[p][k] - s * A[q][k], s * A[p][k] + c * A[q][k]
                for k in range(n):
                    V[k][p], V[k][q] = c * V[k][p] - s * V[k][q], s * V[k][p] + c * V[k][q]
    return [A[i][i] for i in range(n)], V


def centre(pts):
    c = [sum(p[k] for p in pts) / len(pts) for k in range(3)]
    return [[p[k] - c[k] for k in range(3)] for p in pts]


def ref_rmsd(P, Q):
    P, Q = centre(P), centre(Q)
    S = [[sum(p[a] * q[b] for p, q in zip(P, Q)) for b in range(3)] for a in range(3)]
    (xx, xy, xz), (yx, yy, yz), (zx, zy, zz) = S
    N = [[xx + yy + zz, yz - zy, zx - xz, xy - yx], [yz - zy, xx - yy - zz, xy + yx, zx + xz],
         [zx - xz, xy + yx, -xx + yy - zz, yz + zy], [xy - yx, zx + xz, yz + zy, -xx - yy + zz]]
    vals, V = jacobi(N)
    k = max(range(4), key=lambda i: vals[i])
    w, x, y, z = (V[i][k] for i in range(4))
    R = [[w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
         [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
         [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]]
    tot = 0.0
    for p, q in zip(P, Q):
        rp = [sum(R[a][b] * p[b] for b in range(3)) for a in range(3)]
        tot += sum((rp[a] - q[a]) ** 2 for a in range(3))
    return math.sqrt(tot / len(P))


def ref_rg(P):
    P = centre(P)
    return math.sqrt(sum(v * v for p in P for v in p) / len(P))


# ---------- trajectories ----------
def rand_rot(rng, proper=True):
    q = [rng.gauss(0, 1) for _ in range(4)]
    n = math.sqrt(sum(v * v for v in q))
    w, x, y, z = (v / n for v in q)
    R = [[w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
         [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
         [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]]
    if not proper:
        R = [[-v for v in R[0]], R[1], R[2]]
    return R


def move(rng, pts, noise=0.0, proper=True):
    R = rand_rot(rng, proper)
    t = [rng.uniform(-20, 20) for _ in range(3)]
    return [[sum(R[a][b] * p[b] for b in range(3)) + t[a] + rng.gauss(0, noise) if noise else
             sum(R[a][b] * p[b] for b in range(3)) + t[a] for a in range(3)] for p in pts]


def base_structure(rng, n):
    pts, cur = [], [0.0, 0.0, 0.0]
    for _ in range(n):
        cur = [c + rng.gauss(0, 1.2) for c in cur]
        pts.append(cur[:])
    return pts


def xyz_text(rng, names, frames):
    out = []
    for k, f in enumerate(frames):
        out.append(str(len(names)))
        out.append(rng.choice(["", f"frame {k}", "t= 1.5 ps E=-12.3"]))
        for nm, p in zip(names, f):
            extra = rng.choice(["", "", " 0.1 0.2 0.3"])
            out.append(f"{nm} {p[0]:.10f}\t{p[1]:.10f}  {p[2]:.10f}{extra}")
    return "\n".join(out) + "\n"


def run(text, *opts):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "t.xyz")
    with open(p, "w") as fh:
        fh.write(text)
    return subprocess.run(["python3", PROG, p, *opts], capture_output=True, text=True, timeout=300)


def check(rng, names, frames, elem=None):
    text = xyz_text(rng, names, frames)
    frames = [[[float(v) for v in line.split()[1:4]] for line in block]
              for block in [text.splitlines()[k * (len(names) + 2) + 2:(k + 1) * (len(names) + 2)]
                            for k in range(len(frames))]]     # the coordinates as written
    p = run(text, *(["--element", elem] if elem else []))
    assert p.returncode == 0, p.stderr[-1000:]
    lines = p.stdout.strip().splitlines()
    assert len(lines) == len(frames), f"{len(lines)} lines for {len(frames)} frames"
    sel = [i for i, nm in enumerate(names) if elem is None or nm == elem]
    Q = [frames[0][i] for i in sel]
    for k, (line, f) in enumerate(zip(lines, frames)):
        idx, r, g = line.split()
        P = [f[i] for i in sel]
        wr, wg = ref_rmsd(P, Q), ref_rg(P)
        assert idx == str(k), f"frame index {idx}, expected {k}"
        assert abs(float(r) - wr) <= 1e-6 * (1 + wr), f"frame {k}: RMSD {r}, expected {wr}"
        assert abs(float(g) - wg) <= 1e-6 * (1 + wg), f"frame {k}: RG {g}, expected {wg}"


# ---------- tests ----------
def test_rigid_copies_have_zero_rmsd():
    rng = random.Random(1)
    n = 30
    names = [rng.choice(ELEMS) for _ in range(n)]
    s = base_structure(rng, n)
    check(rng, names, [s] + [move(rng, s) for _ in range(5)])


def test_noisy_frames():
    rng = random.Random(2)
    for n in (3, 12, 80):
        names = [rng.choice(ELEMS) for _ in range(n)]
        s = base_structure(rng, n)
        check(rng, names, [s] + [move(rng, s, noise=rng.choice([0.05, 0.5, 2.0])) for _ in range(6)])


def test_mirror_images_are_not_superposed():
    rng = random.Random(3)
    n = 25
    names = [rng.choice(ELEMS) for _ in range(n)]
    s = base_structure(rng, n)
    frames = [s] + [move(rng, s, proper=False) for _ in range(3)] + [move(rng, s, noise=0.3, proper=False)]
    check(rng, names, frames)
    p = run(xyz_text(rng, names, frames))
    assert all(float(l.split()[1]) > 0.1 for l in p.stdout.strip().splitlines()[1:]), \
        "a mirror image of a chiral structure cannot be superposed by a rotation"


def test_element_selection():
    rng = random.Random(4)
    n = 40
    names = [rng.choice(ELEMS) for _ in range(n)]
    s = base_structure(rng, n)
    frames = [s] + [move(rng, s, noise=0.4) for _ in range(4)]
    check(rng, names, frames, elem="C")
    check(rng, names, frames, elem="N")


def test_errors():
    rng = random.Random(5)
    names = ["C", "O", "N", "H"]
    s = base_structure(rng, 4)
    good = xyz_text(rng, names, [s, move(rng, s)])
    assert run(good).returncode == 0, "a valid trajectory must work before the error cases count"
    bad_order = xyz_text(rng, names, [s]) + xyz_text(rng, ["C", "N", "O", "H"], [move(rng, s)])
    bad_count = xyz_text(rng, names, [s]) + xyz_text(rng, names[:3], [s[:3]])
    truncated = "\n".join(good.strip().splitlines()[:-2]) + "\n"
    for text, opts, what in ((bad_order, (), "element order differs"), (bad_count, (), "atom count differs"),
                             (truncated, (), "truncated frame"), (good, ("--element", "Fe"), "no Fe atoms")):
        p = run(text, *opts)
        assert p.returncode == 2 and p.stdout.strip() == "" and p.stderr.strip(), f"{what}: exit {p.returncode}"
