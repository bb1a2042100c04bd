import os
import random
import resource
import signal
import subprocess
import tempfile

import numpy as np


# Speed limits measure CPU time, not wall-clock time: other work on the machine stretches the second,
# never the first. numpy is held to one thread so that its thread pool cannot add CPU time of its own.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
HANG_GUARD_S = 600   # wall-clock: only stops a program that blocks without using CPU


def run_cpu(cmd, cpu_limit, name):
    """Run ``cmd``; return (completed process, CPU seconds it used: user + system, from getrusage).
    RLIMIT_CPU stops it once it has used ``cpu_limit`` seconds of CPU."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_GUARD_S, preexec_fn=limit,
                          env={**os.environ, **ONE_THREAD})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode != -signal.SIGXCPU, f"{name} used more than {cpu_limit} s of CPU time"
    return proc, cpu


RUNNER = """
import runpy, sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "scipy" or name.startswith("scipy."):
            raise ImportError("scipy is not available")
        return None
sys.meta_path.insert(0, Block())
sys.argv = ["/app/spsolve.py"] + sys.argv[1:]
runpy.run_path("/app/spsolve.py", run_name="__main__")
"""


def grid_matrix(shape, rng, kmin=1.0, kmax=30.0, shift=0.02):
    """Variable-coefficient Laplacian (5- or 7-point) as COO of the full matrix."""
    dims = len(shape)
    n = int(np.prod(shape))
    idx = np.arange(n).reshape(shape)
    rows, cols, vals = [], [], []
    diag = np.full(n, shift)
    for ax in range(dims):
        a = np.take(idx, range(shape[ax] - 1), axis=ax).ravel()
        b = np.take(idx, range(1, shape[ax]), axis=ax).ravel()
        k = np.exp(rng.uniform(np.log(kmin), np.log(kmax), size=a.size))
        rows += [a, b]
        cols += [b, a]
        vals += [-k, -k]
        np.add.at(diag, a, k)
        np.add.at(diag, b, k)
    rows.append(np.arange(n))
    cols.append(np.arange(n))
    vals.append(diag)
    return n, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)


def write_mtx(path, n, rows, cols, vals, symmetric, rng, comments=True):
    if symmetric:
        keep = rows >= cols
        rows, cols, vals = rows[keep], cols[keep], vals[keep]
    perm = rng.permutation(rows.size)
    rows, cols, vals = rows[perm], cols[perm], vals[perm]
    with open(path, "w") as fh:
        fh.write(f"%%MatrixMarket matrix coordinate real {'symmetric' if symmetric else 'general'}\n")
        if comments:
            fh.write("% generated for the solver test\n%\n")
        fh.write(f"{n} {n} {rows.size}\n")
        fh.write("".join(f"{r + 1} {c + 1} {v!r}\n" for r, c, v in zip(rows.tolist(), cols.tolist(), vals.tolist())))


def solve(n, rows, cols, vals, symmetric, seed, limit=60):
    rng = np.random.default_rng(seed)
    d = tempfile.mkdtemp()
    A, B, X = (os.path.join(d, f) for f in ("A.mtx", "b.txt", "x.txt"))
    write_mtx(A, n, rows, cols, vals, symmetric, rng)
    b = rng.normal(size=n)
    np.savetxt(B, b, fmt="%.17g")
    proc, elapsed = run_cpu(["python3", "-c", RUNNER, A, B, X], limit + 35, "spsolve.py")
    assert proc.returncode == 0, proc.stderr[-3000:]
    x = np.loadtxt(X).reshape(-1)
    assert x.shape == (n,)
    Ax = np.bincount(rows, weights=vals * x[cols], minlength=n)
    return np.linalg.norm(b - Ax) / np.linalg.norm(b), elapsed


def test_tiny_example():
    proc, _ = run_cpu(["python3", "-c", RUNNER, "/app/data/tiny.mtx", "/app/data/tiny_b.txt", "/tmp/tiny_x.txt"],
                      60, "spsolve.py")
    assert proc.returncode == 0, proc.stderr
    assert np.allclose(np.loadtxt("/tmp/tiny_x.txt"), 1.0, atol=1e-8)


def test_small_dense_check():
    rng = np.random.default_rng(1)
    n = 60
    M = rng.normal(size=(n, n))
    A = M @ M.T + n * np.eye(n)
    A[np.abs(A) < 2.0] = 0.0
    A = (A + A.T) / 2 + 0.0
    A += np.eye(n) * (abs(np.linalg.eigvalsh(A).min()) + 1.0)
    r, c = np.nonzero(A)
    res, _ = solve(n, r, c, A[r, c], True, 11)
    assert res <= 1e-8


def test_2d_variable_coefficients():
    n, r, c, v = grid_matrix((250, 250), np.random.default_rng(2))
    res, elapsed = solve(n, r, c, v, True, 12)
    assert res <= 1e-8
    assert elapsed < 90, elapsed   # CPU seconds; the limit is 60 s


def test_3d_symmetric():
    n, r, c, v = grid_matrix((36, 36, 36), np.random.default_rng(3), kmax=10.0)
    res, elapsed = solve(n, r, c, v, True, 13)
    assert res <= 1e-8
    assert elapsed < 90, elapsed   # CPU seconds; the limit is 60 s


def test_general_format():
    n, r, c, v = grid_matrix((120, 150), np.random.default_rng(4))
    res, _ = solve(n, r, c, v, False, 14)
    assert res <= 1e-8


def test_badly_scaled_rows():
    # symmetric diagonal scaling D A D with D spanning 2 orders of magnitude
    n, r, c, v = grid_matrix((100, 100), np.random.default_rng(5), kmax=10.0)
    d = np.exp(np.random.default_rng(6).uniform(np.log(0.1), np.log(10.0), size=n))
    res, _ = solve(n, r, c, v * d[r] * d[c], True, 15)
    assert res <= 1e-8
