import cmath
import json
import math
import os
import random
import subprocess
import tempfile

# The library runs in a child process (a hang guard), driven by JSON over stdin/stdout.
DRIVER = r'''
import json, sys
sys.path.insert(0, "/app")
import fftlib
out = []
for name, args, kw in json.load(sys.stdin):
    args = [[complex(*c) if isinstance(c, list) else c for c in a] if isinstance(a, list) else a for a in args]
    r = getattr(fftlib, name)(*args, **kw)
    out.append([[c.real, c.imag] if isinstance(c, complex) else float(c) for c in r])
json.dump(out, sys.stdout)
'''


def call_many(calls):
    d = tempfile.mkdtemp()
    drv = os.path.join(d, "drive.py")
    with open(drv, "w") as fh:
        fh.write(DRIVER)
    payload = json.dumps([[n, [[[c.real, c.imag] if isinstance(c, complex) else c for c in a]
                                if isinstance(a, list) else a for a in args], kw] for n, args, kw in calls])
    p = subprocess.run(["python3", drv], input=payload, capture_output=True, text=True, timeout=600, cwd=d)
    assert p.returncode == 0, p.stderr[-2000:]
    return [[complex(*c) if isinstance(c, list) else c for c in r] for r in json.loads(p.stdout)]


def close_all(got, want, what):
    assert len(got) == len(want), f"{what}: length {len(got)}, expected {len(want)}"
    tol = 1e-9 * (1 + max([abs(w) for w in want] + [0]))
    for i, (g, w) in enumerate(zip(got, want)):
        assert abs(g - w) <= tol, f"{what}: element {i} = {g}, expected {w}"


# ---------- references ----------
def dft(x, sign=-1):
    n = len(x)
    return [sum(x[j] * cmath.exp(sign * 2j * math.pi * ((j * k) % n) / n) for j in range(n)) for k in range(n)]


def idft(X):
    n = len(X)
    return [v / n for v in dft(X, +1)]


def ref_irfft(X, n):
    half = n // 2 + 1
    H = list(X[:half]) + [0j] * max(0, half - len(X))
    H[0] = complex(H[0].real, 0)
    if n % 2 == 0:
        H[n // 2] = complex(H[n // 2].real, 0)
    full = [H[k] if k < half else H[n - k].conjugate() for k in range(n)]
    return [v.real for v in idft(full)]


def ref_convolve(a, v, mode):
    M, N = len(a), len(v)
    full = [sum(a[i] * v[k - i] for i in range(M) if 0 <= k - i < N) for k in range(M + N - 1)]
    if mode == "full":
        return full
    big, small = max(M, N), min(M, N)
    if mode == "same":
        s = (small - 1) // 2
        return full[s:s + big]
    return full[small - 1:big]


def ref_fftfreq(n, d):
    return [(k if k < n - n // 2 else k - n) / (d * n) for k in range(n)]


def cvec(rng, n):
    return [complex(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(n)]


def rvec(rng, n):
    return [rng.uniform(-1, 1) for _ in range(n)]


# ---------- tests ----------
def test_fft_and_ifft_powers_of_two():
    rng = random.Random(1)
    xs = [cvec(rng, n) for n in (1, 2, 4, 16, 64, 256)]
    got = call_many([("fft", [x], {}) for x in xs] + [("ifft", [x], {}) for x in xs])
    for x, g in zip(xs, got[:len(xs)]):
        close_all(g, dft(x), f"fft n={len(x)}")
    for x, g in zip(xs, got[len(xs):]):
        close_all(g, idft(x), f"ifft n={len(x)}")


def test_fft_any_length():
    rng = random.Random(2)
    xs = [cvec(rng, n) for n in (3, 5, 6, 7, 9, 12, 17, 33, 100, 129, 210)]
    got = call_many([("fft", [x], {}) for x in xs])
    for x, g in zip(xs, got):
        close_all(g, dft(x), f"fft n={len(x)}")


def test_ifft_any_length():
    rng = random.Random(3)
    xs = [cvec(rng, n) for n in (3, 5, 10, 11, 17, 65, 96, 150)]
    got = call_many([("ifft", [x], {}) for x in xs])
    for x, g in zip(xs, got):
        close_all(g, idft(x), f"ifft n={len(x)}")


def test_large_lengths_stay_fast_and_exact():
    rng = random.Random(4)
    for n in (30011, 32769):
        x = cvec(rng, n)
        f, back = call_many([("fft", [x], {}), ("ifft", [x], {})])
        assert len(f) == n and len(back) == n
        tol_f = 1e-9 * (1 + 4 * math.sqrt(n))      # |X[k]| stays below about 4 sqrt(n) here
        for k in [0, 1, 2, n // 3, n - 1] + [rng.randrange(n) for _ in range(3)]:
            want = sum(x[j] * cmath.exp(-2j * math.pi * ((j * k) % n) / n) for j in range(n))
            assert abs(f[k] - want) <= tol_f, f"fft n={n} bin {k}: {f[k]}, expected {want}"
            wb = sum(x[j] * cmath.exp(2j * math.pi * ((j * k) % n) / n) for j in range(n)) / n
            assert abs(back[k] - wb) <= 2e-9, f"ifft n={n} element {k}: {back[k]}, expected {wb}"


def test_rfft_and_irfft():
    rng = random.Random(5)
    calls, want = [], []
    for n in (1, 2, 5, 8, 9, 15, 16, 31, 100):
        x = rvec(rng, n)
        calls.append(("rfft", [x], {}))
        want.append((f"rfft n={n}", dft(x)[: n // 2 + 1]))
    for m, n in ((5, None), (5, 9), (5, 8), (6, 11), (4, 3), (9, 12), (7, 13), (3, 4), (8, 15)):
        X = cvec(rng, m)
        nn = n if n is not None else 2 * (m - 1)
        calls.append(("irfft", [X], {} if n is None else {"n": n}))
        want.append((f"irfft len(X)={m} n={nn}", ref_irfft(X, nn)))
    for g, (what, w) in zip(call_many(calls), want):
        close_all(g, w, what)


def test_convolve_modes():
    rng = random.Random(6)
    calls, want = [], []
    for M, N in ((10, 3), (10, 4), (7, 7), (3, 10), (4, 11), (1, 5), (6, 1), (2, 2), (33, 8), (8, 33)):
        a, v = rvec(rng, M), rvec(rng, N)
        for mode in ("full", "same", "valid"):
            calls.append(("convolve", [a, v], {"mode": mode}))
            want.append((f"convolve M={M} N={N} {mode}", ref_convolve(a, v, mode)))
    for g, (what, w) in zip(call_many(calls), want):
        close_all(g, w, what)


def test_frequencies_and_shifts():
    calls, want = [], []
    for n in range(1, 14):
        d = 0.25 * n
        calls.append(("fftfreq", [n, d], {}))
        want.append((f"fftfreq({n}, {d})", ref_fftfreq(n, d)))
        x = [float(i) for i in range(n)]
        calls.append(("fftshift", [x], {}))
        want.append((f"fftshift n={n}", [x[(i + n - n // 2) % n] for i in range(n)]))
        calls.append(("ifftshift", [x], {}))
        want.append((f"ifftshift n={n}", [x[(i + n // 2) % n] for i in range(n)]))
    for g, (what, w) in zip(call_many(calls), want):
        close_all(g, w, what)
