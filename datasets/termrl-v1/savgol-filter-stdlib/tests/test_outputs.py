import math
import os
import random
import subprocess
import tempfile
from fractions import Fraction

PROG = "/app/savgol.py"


# ---------- exact reference ----------
def exact_weights(ts, t0, order, deriv):
    """Weights of the least-squares polynomial's deriv-th derivative at t0, in exact rational arithmetic."""
    m = order + 1
    V = [[Fraction(t) ** k for k in range(m)] for t in ts]
    G = [[sum(r[a] * r[b] for r in V) for b in range(m)] for a in range(m)]
    rhs = [Fraction(math.factorial(k) // math.factorial(k - deriv)) * Fraction(t0) ** (k - deriv) if k >= deriv
           else Fraction(0) for k in range(m)]
    # Gauss-Jordan on [G | rhs]
    M = [G[i] + [rhs[i]] for i in range(m)]
    for c in range(m):
        piv = next(r for r in range(c, m) if M[r][c])
        M[c], M[piv] = M[piv], M[c]
        M[c] = [v / M[c][c] for v in M[c]]
        for r in range(m):
            if r != c and M[r][c]:
                M[r] = [a - M[r][c] * b for a, b in zip(M[r], M[c])]
    z = [M[i][m] for i in range(m)]
    return [sum(r[k] * z[k] for k in range(m)) for r in V]


def reference(x, W, P, D=0, delta=1.0, mode="interp", cval=0.0):
    n, h = len(x), W // 2
    X = [Fraction(v) for v in x]

    def ext(i):
        if 0 <= i < n:
            return X[i]
        if mode == "constant":
            return Fraction(cval)
        if mode == "nearest":
            return X[0] if i < 0 else X[-1]
        if mode == "wrap":
            return X[i % n]
        j = abs(i) if i < 0 else 2 * (n - 1) - i
        return X[j]

    w = exact_weights(range(-h, h + 1), 0, P, D)
    out = [sum(wj * ext(i - h + j) for j, wj in enumerate(w)) for i in range(n)]
    if mode == "interp":
        for t0 in range(h):
            wl = exact_weights(range(W), t0, P, D)
            out[t0] = sum(a * b for a, b in zip(wl, X[:W]))
            wr = exact_weights(range(W), W - 1 - t0, P, D)
            out[n - 1 - t0] = sum(a * b for a, b in zip(wr, X[n - W:]))
    return [float(v) / delta ** D for v in out]


# ---------- running ----------
def run(x, *opts, raw=None):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "s.txt")
    with open(p, "w") as fh:
        fh.write(raw if raw is not None else "".join(f"{v!r}\n" for v in x))
    return subprocess.run(["python3", PROG, p, *opts], capture_output=True, text=True, timeout=300)


def check(x, W, P, D=0, delta=1.0, mode=None, cval=None):
    opts = ["--window", str(W), "--order", str(P)]
    if D:
        opts += ["--deriv", str(D)]
    if delta != 1.0:
        opts += ["--delta", repr(delta)]
    if mode is not None:
        opts += ["--mode", mode]
    if cval is not None:
        opts += ["--cval", repr(cval)]
    p = run(x, *opts)
    what = f"W={W} P={P} D={D} delta={delta} mode={mode or 'interp'}"
    assert p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr[-800:]}"
    got = [float(v) for v in p.stdout.split()]
    want = reference(x, W, P, D, delta, mode or "interp", cval or 0.0)
    assert len(got) == len(want), f"{what}: {len(got)} values for {len(want)} samples"
    tol = 1e-8 * (1 + max(abs(v) for v in want))
    for i, (g, w) in enumerate(zip(got, want)):
        assert abs(g - w) <= tol, f"{what}: y[{i}] = {g}, expected {w}"


def signal(rng, n, scale=1.0):
    a, b, c = rng.uniform(-2, 2), rng.uniform(-0.1, 0.1), rng.uniform(0.05, 0.4)
    return [scale * (a + b * i + math.sin(c * i) + rng.gauss(0, 0.3)) for i in range(n)]


# ---------- tests ----------
def test_extension_modes():
    rng = random.Random(1)
    for mode in ("mirror", "nearest", "constant", "wrap"):
        for W, P in ((5, 2), (9, 3), (15, 4)):
            check(signal(rng, rng.randint(30, 70)), W, P, mode=mode, cval=rng.uniform(-3, 3) if mode == "constant" else None)


def test_interp_edges_default_mode():
    rng = random.Random(2)
    for W, P in ((5, 2), (7, 0), (11, 3), (21, 5)):
        x = signal(rng, rng.randint(W, W + 40))
        check(x, W, P)
        check(x, W, P, mode="interp")


def test_derivatives_with_spacing():
    rng = random.Random(3)
    for mode in ("interp", "mirror", "nearest", "wrap"):
        for W, P, D in ((7, 2, 1), (11, 4, 2), (13, 3, 3)):
            check(signal(rng, 50), W, P, D=D, delta=rng.choice([0.1, 0.5, 2.0]), mode=mode)


def test_wide_windows_high_orders():
    rng = random.Random(4)
    for W, P, D in ((41, 6, 0), (41, 6, 2), (35, 5, 1), (31, 6, 4)):
        x = signal(rng, rng.randint(60, 120), scale=250.0)
        check(x, W, P, D=D, mode=rng.choice(["interp", "mirror", "nearest"]))


def test_polynomials_pass_through():
    rng = random.Random(5)
    cs = [rng.uniform(-1, 1) for _ in range(4)]
    x = [sum(c * (i / 10) ** k for k, c in enumerate(cs)) for i in range(40)]
    p = run(x, "--window", "9", "--order", "3")
    assert p.returncode == 0, p.stderr[-500:]
    got = [float(v) for v in p.stdout.split()]
    assert all(abs(g - w) <= 1e-9 * (1 + abs(w)) for g, w in zip(got, x)), "a cubic must pass through unchanged"
    p = run(x, "--window", "9", "--order", "3", "--deriv", "1", "--delta", "0.1")
    got = [float(v) for v in p.stdout.split()]
    dx = [sum(k * c * (i / 10) ** (k - 1) for k, c in enumerate(cs) if k) for i in range(40)]
    assert all(abs(g - w) <= 1e-7 * (1 + abs(w)) for g, w in zip(got, dx)), "its derivative must be exact too"


def test_errors_and_input():
    rng = random.Random(6)
    x = signal(rng, 30)
    raw = "\n" + "".join(f"{v!r}\n\n" if i % 5 == 0 else f"{v!r}\n" for i, v in enumerate(x))
    p = run(x, "--window", "7", "--order", "2", raw=raw)
    assert p.returncode == 0 and len(p.stdout.split()) == 30, "blank lines must be ignored"
    for opts, data in ((["--window", "6", "--order", "2"], x), (["--window", "5", "--order", "5"], x),
                       (["--window", "7", "--order", "2", "--deriv", "3"], x),
                       (["--window", "7", "--order", "2", "--mode", "reflect"], x),
                       (["--window", "31", "--order", "2"], x), (["--window", "5", "--order", "2"], [])):
        p = run(data, *opts)
        assert p.returncode == 2, f"{opts} on {len(data)} samples: exit {p.returncode}, expected 2"
        assert p.stdout.strip() == "" and p.stderr.strip(), f"{opts}: message on stderr only"
