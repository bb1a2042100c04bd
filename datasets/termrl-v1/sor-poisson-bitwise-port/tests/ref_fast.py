"""The tests' reference: the original program (orig_solve_poisson.py, a copy of the shipped one) with
its sweep replaced by ref_sor.c through ctypes; everything else is the original's own code."""
import ctypes
import os
import subprocess
import sys
from array import array

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import orig_solve_poisson as orig  # noqa: E402


def build(workdir):
    lib = os.path.join(workdir, "libref_sor.so")
    subprocess.run(["gcc", "-O2", "-ffp-contract=off", "-shared", "-fPIC", "-o", lib,
                    os.path.join(HERE, "ref_sor.c")], check=True)
    return ctypes.CDLL(lib)


def install(lib):
    fn = lib.ref_sor
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_double,
                   ctypes.c_double, ctypes.c_double, ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                   ctypes.POINTER(ctypes.c_double)]

    def sor(u, f, nx, ny, h, omega, tol, max_iter):
        flat_u, flat_f = array("d"), array("d")
        for row in u:
            flat_u.extend(row)
        for row in f:
            flat_f.extend(row)
        conv, change = ctypes.c_int(0), ctypes.c_double(0.0)
        pu, _ = flat_u.buffer_info()
        pf, _ = flat_f.buffer_info()
        it = fn(pu, pf, nx, ny, h, omega, tol, max_iter, ctypes.byref(conv), ctypes.byref(change))
        w = nx + 2
        for j in range(ny + 2):
            u[j][:] = flat_u[j * w:(j + 1) * w].tolist()
        return it, bool(conv.value), change.value

    orig.sor = sor


def run(problem_path, outdir, lib):
    install(lib)
    return orig.main(["ref", str(problem_path), str(outdir)])
