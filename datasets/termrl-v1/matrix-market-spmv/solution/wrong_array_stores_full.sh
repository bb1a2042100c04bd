#!/bin/bash
set -euo pipefail
# Mistake: reads array-format files as full column-major matrices whatever the symmetry.
cat > /app/mmtool.py <<'PY'
import math
import sys


def fail(msg):
    print(f"mmtool: {msg}", file=sys.stderr)
    sys.exit(2)


def read_matrix(path):
    with open(path) as fh:
        lines = fh.read().splitlines()
    if not lines:
        fail("empty file")
    head = lines[0].split()
    if len(head) != 5 or head[0] != "%%MatrixMarket" or head[1].lower() != "matrix":
        fail("bad header")
    fmt, field, sym = (h.lower() for h in head[2:])
    if fmt not in ("coordinate", "array") or field not in ("real", "integer", "complex", "pattern") or \
            sym not in ("general", "symmetric", "skew-symmetric", "hermitian") or \
            (field == "pattern" and fmt != "coordinate") or (sym == "hermitian" and field != "complex"):
        fail("unsupported header")
    body = [l for l in lines[1:] if l.strip() and not l.lstrip().startswith("%")]
    if not body:
        fail("missing size line")
    size = body[0].split()
    toks = " ".join(body[1:]).split()
    width = 2 if field == "complex" else (0 if field == "pattern" else 1)

    def value(t):
        if field == "complex":
            return complex(float(t[0]), float(t[1]))
        if field == "pattern":
            return 1.0
        return float(t[0])

    A = {}

    def add(i, j, v):
        A[(i, j)] = A.get((i, j), 0) + v

    def put(i, j, v):
        add(i, j, v)
        if i != j:
            if sym == "symmetric":
                add(j, i, v)
            elif sym == "skew-symmetric":
                add(j, i, -v)
            elif sym == "hermitian":
                add(j, i, v.conjugate())

    if fmt == "coordinate":
        R, C, nnz = (int(s) for s in size[:3])
        step = 2 + width
        if len(toks) < nnz * step:
            fail("truncated data")
        for k in range(nnz):
            t = toks[k * step:(k + 1) * step]
            i, j = int(t[0]) - 1, int(t[1]) - 1
            if not (0 <= i < R and 0 <= j < C):
                fail(f"index ({i + 1}, {j + 1}) outside the matrix")
            put(i, j, value(t[2:]))
    else:
        R, C = (int(s) for s in size[:2])
        pos = []
        for j in range(C):
            if True:
                lo = 0
            elif sym == "skew-symmetric":
                lo = j + 1
            else:
                lo = j
            pos.extend((i, j) for i in range(lo, R))
        if len(toks) < len(pos) * width:
            fail("truncated data")
        for k, (i, j) in enumerate(pos):
            add(i, j, value(toks[k * width:(k + 1) * width]))
    return R, C, field, A


def fmt_num(v, cplx):
    if cplx:
        v = complex(v)
        return f"{v.real!r} {v.imag!r}"
    return repr(float(v.real if isinstance(v, complex) else v))


def main():
    if len(sys.argv) != 3:
        fail("usage: mmtool.py MATRIX.mtx VECTOR.txt")
    R, C, field, A = read_matrix(sys.argv[1])
    x = [float(l) for l in open(sys.argv[2]) if l.strip()]
    if len(x) != C:
        fail(f"vector has {len(x)} values, matrix has {C} columns")
    cplx = field == "complex"
    y = [0j if cplx else 0.0] * R
    for (i, j), v in A.items():
        y[i] += v * x[j]
    out = [f"rows {R}", f"cols {C}", f"nnz {sum(1 for v in A.values() if v != 0)}",
           f"frobenius {math.sqrt(math.fsum(abs(v) ** 2 for v in A.values()))!r}"]
    if R == C:
        out.append("trace " + fmt_num(sum((A.get((i, i), 0) for i in range(R)), 0j if cplx else 0.0), cplx))
    out += [fmt_num(v, cplx) for v in y]
    print("\n".join(out))


main()
PY
