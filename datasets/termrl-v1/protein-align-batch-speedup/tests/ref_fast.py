"""The tests' reference: the original program (orig_align_batch.py, a copy of the shipped one) with its
local_align() replaced by ref_align.c through ctypes; parsing, filtering and sorting stay the original's."""
import ctypes
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import orig_align_batch as orig  # noqa: E402


def build(workdir):
    lib = os.path.join(workdir, "libref_align.so")
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", lib, os.path.join(HERE, "ref_align.c")], check=True)
    return ctypes.CDLL(lib)


def install(lib):
    fn = lib.ref_align
    fn.restype = ctypes.c_int
    cache = {}

    def local_align(a, b, matrix, gap_open, gap_extend):
        key = id(matrix)
        if key not in cache:
            letters = sorted(matrix)
            index = {c: i for i, c in enumerate(letters)}
            k = len(letters)
            flat = (ctypes.c_int * (k * k))(*[matrix[x][y] for x in letters for y in letters])
            cache.clear()
            cache[key] = (matrix, index, k, flat)
        _, index, k, flat = cache[key]
        n, m = len(a), len(b)
        ca = (ctypes.c_int * max(n, 1))(*[index[c] for c in a])
        cb = (ctypes.c_int * max(m, 1))(*[index[c] for c in b])
        bufs = [(ctypes.c_int * (m + 1))() for _ in range(4)]
        out = (ctypes.c_int * 3)()
        fn(ca, n, cb, m, flat, k, gap_open, gap_extend, *bufs, out)
        return out[0], out[1], out[2]

    orig.local_align = local_align


def run(argv, lib):
    install(lib)
    return orig.main([str(x) for x in argv])
