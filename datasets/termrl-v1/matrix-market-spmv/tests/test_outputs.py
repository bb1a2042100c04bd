import math
import os
import random
import subprocess
import tempfile

PROG = "/app/mmtool.py"


# ---------- random matrices (dense, with the requested structure) and their .mtx text ----------
def rand_val(rng, field):
    if field == "integer":
        return float(rng.randint(-9, 9) or 1)
    if field == "complex":
        return complex(round(rng.uniform(-5, 5), 6), round(rng.uniform(-5, 5), 6))
    if field == "pattern":
        return 1.0
    return rng.choice([round(rng.uniform(-10, 10), 6), rng.uniform(-1e3, 1e3), float(rng.randint(-5, 5) or 2)])


def dense(rng, R, C, field, sym, density):
    zero = 0j if field == "complex" else 0.0
    A = [[zero] * C for _ in range(R)]
    for i in range(R):
        for j in range(C):
            if sym != "general" and j > i:
                continue
            if sym == "skew-symmetric" and i == j:
                continue
            if rng.random() < density:
                v = rand_val(rng, field)
                if sym == "hermitian" and i == j:
                    v = complex(v.real, 0)
                A[i][j] = v
    if sym != "general":
        for i in range(R):
            for j in range(i + 1, C):
                v = A[j][i]
                A[i][j] = v if sym == "symmetric" else (-v if sym == "skew-symmetric" else v.conjugate())
    return A


def num(rng, v, field):
    if field == "complex":
        return f"{v.real!r} {v.imag!r}"
    if field == "integer":
        return str(int(v))
    return rng.choice([repr(v), f"{v:.17e}", f"{v:.17E}"])


def mtx(rng, A, fmt, field, sym, dup=True):
    R, C = len(A), len(A[0])
    head = f"%%MatrixMarket matrix {fmt} {field} {sym}"
    if rng.random() < 0.3:
        head = "%%MatrixMarket " + " ".join(w.upper() if rng.random() < 0.5 else w for w in head.split()[1:])
    lines = [head, "% generated for a test", "%", ""]
    zero = 0j if field == "complex" else 0.0
    if fmt == "array":
        for j in range(C):
            lo = 0 if sym == "general" else (j + 1 if sym == "skew-symmetric" else j)
            for i in range(lo, R):
                lines.append(num(rng, A[i][j], field))
        return "\n".join([lines[0], lines[1], f"{R} {C}"] + lines[4:]) + "\n"
    entries = []
    for i in range(R):
        for j in range(C):
            if sym != "general" and (j > i or (sym == "skew-symmetric" and i == j)):
                continue
            v = A[i][j]
            if v == zero:
                if rng.random() < 0.02 and field != "pattern":
                    entries.append((i, j, zero))          # an explicit zero
                continue
            if dup and field in ("real", "complex", "integer") and rng.random() < 0.15:
                part = (float(rng.randint(-3, 3)) if field == "integer" else
                        complex(round(rng.uniform(-1, 1), 3), round(rng.uniform(-1, 1), 3)) if field == "complex" else
                        round(rng.uniform(-1, 1), 3))
                if sym == "hermitian" and i == j:
                    part = complex(part.real, 0)
                entries += [(i, j, part), (i, j, v - part)]
            else:
                entries.append((i, j, v))
    rng.shuffle(entries)
    body = [f"{R} {C} {len(entries)}"]
    for i, j, v in entries:
        body.append(f"{i + 1} {j + 1}" + ("" if field == "pattern" else " " + num(rng, v, field)))
    return "\n".join(lines + body) + "\n"


# ---------- running and checking ----------
def run(text, x):
    d = tempfile.mkdtemp()
    mp, vp = os.path.join(d, "m.mtx"), os.path.join(d, "x.txt")
    with open(mp, "w") as fh:
        fh.write(text)
    with open(vp, "w") as fh:
        fh.write("".join(f"{v!r}\n" for v in x))
    return subprocess.run(["python3", PROG, mp, vp], capture_output=True, text=True, timeout=300)


def close(g, w):
    return abs(g - w) <= 1e-9 * (1 + abs(w))


def parse_num(s, cplx):
    p = s.split()
    return complex(float(p[0]), float(p[1])) if cplx else float(p[0])


def check(rng, A, fmt, field, sym):
    R, C = len(A), len(A[0])
    x = [rng.uniform(-2, 2) for _ in range(C)]
    text = mtx(rng, A, fmt, field, sym)
    p = run(text, x)
    what = f"{fmt} {field} {sym} {R}x{C}"
    assert p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr[-800:]}"
    lines = p.stdout.strip().splitlines()
    cplx = field == "complex"
    kv = {}
    k = 0
    while k < len(lines) and lines[k].split()[0] in ("rows", "cols", "nnz", "frobenius", "trace"):
        key, rest = lines[k].split(None, 1)
        kv[key] = rest
        k += 1
    ys = lines[k:]
    assert kv.get("rows") == str(R) and kv.get("cols") == str(C), f"{what}: rows/cols {kv}"
    nnz = sum(1 for row in A for v in row if v != 0)
    assert kv.get("nnz") == str(nnz), f"{what}: nnz {kv.get('nnz')}, expected {nnz}"
    fro = math.sqrt(math.fsum(abs(v) ** 2 for row in A for v in row))
    assert close(float(kv["frobenius"]), fro), f"{what}: frobenius {kv['frobenius']}, expected {fro}"
    if R == C:
        tr = sum((A[i][i] for i in range(R)), 0j if cplx else 0.0)
        assert "trace" in kv and close(parse_num(kv["trace"], cplx), tr), f"{what}: trace {kv.get('trace')}, expected {tr}"
    else:
        assert "trace" not in kv, f"{what}: no trace line for a non-square matrix"
    want = [sum((A[i][j] * x[j] for j in range(C)), 0j if cplx else 0.0) for i in range(R)]
    assert len(ys) == R, f"{what}: {len(ys)} values of y for {R} rows"
    for i, (g, w) in enumerate(zip(ys, want)):
        assert close(parse_num(g, cplx), w), f"{what}: y[{i}] = {g}, expected {w}"


# ---------- tests ----------
def test_coordinate_general():
    rng = random.Random(1)
    for field in ("real", "integer", "pattern", "complex"):
        R, C = rng.randint(3, 30), rng.randint(3, 30)
        check(rng, dense(rng, R, C, field, "general", 0.3), "coordinate", field, "general")


def test_coordinate_symmetries():
    rng = random.Random(2)
    for field, sym in (("real", "symmetric"), ("integer", "symmetric"), ("pattern", "symmetric"),
                       ("real", "skew-symmetric"), ("integer", "skew-symmetric"), ("complex", "symmetric"),
                       ("complex", "skew-symmetric"), ("complex", "hermitian")):
        n = rng.randint(4, 25)
        check(rng, dense(rng, n, n, field, sym, 0.35), "coordinate", field, sym)


def test_array_format():
    rng = random.Random(3)
    for field, sym, R, C in (("real", "general", 7, 4), ("integer", "general", 3, 9), ("complex", "general", 5, 5),
                             ("real", "symmetric", 8, 8), ("real", "skew-symmetric", 6, 6),
                             ("complex", "hermitian", 7, 7), ("integer", "symmetric", 5, 5)):
        check(rng, dense(rng, R, C, field, sym, 0.8), "array", field, sym)


def test_duplicates_are_summed_and_large_matrix():
    rng = random.Random(4)
    A = dense(rng, 120, 90, "real", "general", 0.08)
    check(rng, A, "coordinate", "real", "general")
    A = dense(rng, 150, 150, "complex", "hermitian", 0.05)
    check(rng, A, "coordinate", "complex", "hermitian")


def test_errors():
    rng = random.Random(5)
    A = dense(rng, 4, 3, "real", "general", 0.9)
    good = mtx(rng, A, "coordinate", "real", "general", dup=False)
    good = "\n".join(["%%MatrixMarket matrix coordinate real general"] + good.splitlines()[1:]) + "\n"
    assert run(good, [1.0, 2.0, 3.0]).returncode == 0, "a valid matrix must work before the error cases count"
    lines = good.splitlines()
    out_of_range = "\n".join(lines[:-1] + ["5 1 1.0"]) + "\n"
    for text, x, what in ((good.replace("%%MatrixMarket", "%MatrixMarket", 1), [1.0, 2.0, 3.0], "bad banner"),
                          (good, [1.0, 2.0], "short vector"),
                          (out_of_range, [1.0, 2.0, 3.0], "row index 5 in a 4-row matrix"),
                          (good.replace("real general", "real diagonal", 1), [1.0, 2.0, 3.0], "unknown symmetry")):
        p = run(text, x)
        assert p.returncode == 2 and p.stdout.strip() == "" and p.stderr.strip(), f"{what}: exit {p.returncode}"
