#!/bin/bash
set -euo pipefail
cat > /app/spsolve.py <<'PY'
import sys

import numpy as np


def read_mtx(path):
    with open(path) as fh:
        header = fh.readline().lower().split()
        symmetric = "symmetric" in header
        line = fh.readline()
        while line.startswith("%") or not line.strip():
            line = fh.readline()
        n, m, nnz = map(int, line.split())
        data = np.array(fh.read().split(), dtype=float).reshape(-1, 3)[:nnz]
    rows = data[:, 0].astype(np.int64) - 1
    cols = data[:, 1].astype(np.int64) - 1
    vals = data[:, 2]
    if symmetric:
        off = rows != cols
        rows, cols, vals = (np.concatenate([rows, cols[off]]), np.concatenate([cols, rows[off]]),
                            np.concatenate([vals, vals[off]]))
    order = np.argsort(rows, kind="stable")
    return n, rows[order], cols[order], vals[order]


def main():
    n, rows, cols, vals = read_mtx(sys.argv[1])
    b = np.loadtxt(sys.argv[2], dtype=float).reshape(-1)

    def matvec(x):
        return np.bincount(rows, weights=vals * x[cols], minlength=n)

    diag = np.bincount(rows[rows == cols], weights=vals[rows == cols], minlength=n)
    dinv = np.where(diag != 0, 1.0 / np.where(diag != 0, diag, 1.0), 1.0)
    x = np.zeros(n)
    r = b - matvec(x)
    z = dinv * r
    p = z.copy()
    rz = r @ z
    bnorm = np.linalg.norm(b) or 1.0
    for _ in range(20 * n + 100):
        Ap = matvec(p)
        alpha = rz / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        if np.linalg.norm(r) <= 1e-11 * bnorm:
            # confirm with the true residual
            r = b - matvec(x)
            if np.linalg.norm(r) <= 1e-10 * bnorm:
                break
        z = dinv * r
        rz_new = r @ z
        p = z + (rz_new / rz) * p
        rz = rz_new
    np.savetxt(sys.argv[3], x, fmt="%.17g")


main()
PY
python3 /app/spsolve.py /app/data/tiny.mtx /app/data/tiny_b.txt /tmp/x.txt && cat /tmp/x.txt
