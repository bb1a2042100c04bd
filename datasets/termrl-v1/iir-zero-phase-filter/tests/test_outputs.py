import cmath
import json
import math
import os
import random
import subprocess
import tempfile

PROG = "/app/filt.py"

# numpy and scipy are made unimportable for the program under test
BLOCK = tempfile.mkdtemp()
for _mod in ("numpy", "scipy"):
    with open(os.path.join(BLOCK, _mod + ".py"), "w") as _fh:
        _fh.write("raise ImportError('not available in this task')\n")


# ---------- independent reference ----------
def poly_from_roots(roots):
    c = [1 + 0j]
    for r in roots:
        c = [u - r * v for u, v in zip(c + [0j], [0j] + c)]
    return [v.real for v in c]


def solve(A, rhs):
    n = len(rhs)
    M = [row[:] + [rhs[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c:
                f = M[r][c] / M[c][c]
                M[r] = [vr - f * vc for vr, vc in zip(M[r], M[c])]
    return [M[r][n] / M[r][r] for r in range(n)]


def normalise(b, a):
    n = max(len(a), len(b))
    return ([v / a[0] for v in b] + [0.0] * (n - len(b)), [v / a[0] for v in a] + [0.0] * (n - len(a)))


def direct_form(b, a, x):
    """The difference equation itself, zero initial state."""
    y = []
    for n in range(len(x)):
        acc = sum(b[k] * x[n - k] for k in range(len(b)) if n - k >= 0)
        acc -= sum(a[k] * y[n - k] for k in range(1, len(a)) if n - k >= 0)
        y.append(acc / a[0])
    return y


def zi_by_linear_solve(b, a):
    # (I - A^T) zi = b[1:] - a[1:] * b[0], A the companion matrix of a
    n = len(a)
    if n == 1:
        return []
    m = n - 1
    comp = [[0.0] * m for _ in range(m)]
    for j in range(m):
        comp[0][j] = -a[j + 1]
    for i in range(1, m):
        comp[i][i - 1] = 1.0
    IminusAT = [[(1.0 if i == j else 0.0) - comp[j][i] for j in range(m)] for i in range(m)]
    rhs = [b[i + 1] - a[i + 1] * b[0] for i in range(m)]
    return solve(IminusAT, rhs)


def tdf2(b, a, x, z):
    n = len(a)
    z = list(z)
    out = []
    for xv in x:
        yv = b[0] * xv + (z[0] if n > 1 else 0.0)
        for i in range(n - 2):
            z[i] = b[i + 1] * xv + z[i + 1] - a[i + 1] * yv
        if n > 1:
            z[-1] = b[-1] * xv - a[-1] * yv
        out.append(yv)
    return out


def ref_filtfilt(b0, a0, x):
    padlen = 3 * max(len(a0), len(b0))
    b, a = normalise(b0, a0)
    ext = [2 * x[0] - x[k] for k in range(padlen, 0, -1)] + list(x) + \
          [2 * x[-1] - x[len(x) - 1 - k] for k in range(1, padlen + 1)]
    zi = zi_by_linear_solve(b, a)
    y = tdf2(b, a, ext, [v * ext[0] for v in zi])
    y.reverse()
    y = tdf2(b, a, y, [v * y[0] for v in zi])
    y.reverse()
    return y[padlen:len(y) - padlen]


# ---------- generators ----------
def random_filter(rng, order, nb=None, a0=1.0):
    roots = []
    while len(roots) < order:
        r = rng.uniform(0.2, 0.9)
        if order - len(roots) >= 2 and rng.random() < 0.7:
            th = rng.uniform(0.1, 3.0)
            roots += [cmath.rect(r, th), cmath.rect(r, -th)]
        else:
            roots.append(rng.choice([-1, 1]) * r)
    a = poly_from_roots(roots)
    nb = order + 1 if nb is None else nb
    b = [rng.uniform(-1, 1) for _ in range(nb)]
    return [v * a0 for v in b], [v * a0 for v in a]


def random_signal(rng, n):
    f1, f2 = rng.uniform(0.005, 0.05), rng.uniform(0.2, 0.45)
    off, slope = rng.uniform(-3, 3), rng.uniform(-0.02, 0.02)
    return [off + slope * i + math.sin(2 * math.pi * f1 * i) + 0.4 * math.sin(2 * math.pi * f2 * i + 1.0)
            + rng.gauss(0, 0.2) for i in range(n)]


def run(b, a, x, *opts, raw_signal=None):
    d = tempfile.mkdtemp()
    cp, sp = os.path.join(d, "c.json"), os.path.join(d, "s.txt")
    with open(cp, "w") as fh:
        json.dump({"b": b, "a": a}, fh)
    with open(sp, "w") as fh:
        fh.write(raw_signal if raw_signal is not None else "".join(f"{v!r}\n" for v in x))
    env = dict(os.environ, PYTHONPATH=BLOCK)
    return subprocess.run(["python3", PROG, cp, sp, *opts], capture_output=True, text=True, timeout=300, env=env)


def check(b, a, x, want, *opts, what=""):
    p = run(b, a, x, *opts)
    assert p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr[-1500:]}"
    got = [float(v) for v in p.stdout.split()]
    assert len(got) == len(want), f"{what}: {len(got)} output values for {len(want)} samples"
    tol = 1e-9 * (1 + max(abs(v) for v in want))
    for i, (g, w) in enumerate(zip(got, want)):
        assert abs(g - w) <= tol, f"{what}: y[{i}] = {g}, expected {w}"


# ---------- tests ----------
def test_lfilter_matches_difference_equation():
    rng = random.Random(11)
    for order in (1, 2, 3, 5):
        b, a = random_filter(rng, order)
        x = random_signal(rng, rng.randint(80, 200))
        check(b, a, x, direct_form(b, a, x), what=f"lfilter order {order} (default mode)")
        check(b, a, x, direct_form(b, a, x), "--mode", "lfilter", what=f"lfilter order {order}")


def test_lfilter_normalises_by_a0_and_unequal_lengths():
    rng = random.Random(12)
    b, a = random_filter(rng, 3, a0=2.5)
    x = random_signal(rng, 150)
    check(b, a, x, direct_form(b, a, x), what="a[0] = 2.5")
    b, a = random_filter(rng, 2, nb=6)          # longer numerator
    check(b, a, x, direct_form(b, a, x), what="len(b) > len(a)")
    b, a = random_filter(rng, 4, nb=2)          # shorter numerator
    check(b, a, x, direct_form(b, a, x), what="len(b) < len(a)")


def test_filtfilt_random_filters():
    rng = random.Random(13)
    for order in (1, 2, 4, 6):
        b, a = random_filter(rng, order)
        x = random_signal(rng, rng.randint(60, 300))
        check(b, a, x, ref_filtfilt(b, a, x), "--mode", "filtfilt", what=f"filtfilt order {order}")


def test_filtfilt_a0_and_unequal_lengths():
    rng = random.Random(14)
    x = random_signal(rng, 200)
    b, a = random_filter(rng, 2, a0=-0.4)
    check(b, a, x, ref_filtfilt(b, a, x), "--mode", "filtfilt", what="filtfilt with a[0] = -0.4")
    b, a = random_filter(rng, 3, nb=7)
    check(b, a, x, ref_filtfilt(b, a, x), "--mode", "filtfilt", what="filtfilt len(b) > len(a)")
    b, a = random_filter(rng, 5, nb=2)
    check(b, a, x, ref_filtfilt(b, a, x), "--mode", "filtfilt", what="filtfilt len(b) < len(a)")
    fir = [rng.uniform(-1, 1) for _ in range(5)]
    check(fir, [1.0], x, ref_filtfilt(fir, [1.0], x), "--mode", "filtfilt", what="filtfilt FIR (a = [1])")


def test_filtfilt_constant_and_trend_edges():
    # a constant signal must come out as gain^2 * constant at every sample, edges included
    rng = random.Random(15)
    b, a = random_filter(rng, 4)
    g = sum(b) / sum(a)
    x = [1.75] * 90
    check(b, a, x, [1.75 * g * g] * 90, "--mode", "filtfilt", what="filtfilt of a constant")
    x = [0.3 * i - 4 + 2 * math.sin(i / 7) for i in range(120)]
    check(b, a, x, ref_filtfilt(b, a, x), "--mode", "filtfilt", what="filtfilt of a trend")


def test_filtfilt_length_limit():
    rng = random.Random(16)
    b, a = random_filter(rng, 3)        # padlen 12
    x = random_signal(rng, 13)
    check(b, a, x, ref_filtfilt(b, a, x), "--mode", "filtfilt", what="13 samples, padlen 12")
    p = run(b, a, x[:12], "--mode", "filtfilt")
    assert p.returncode == 2 and p.stdout.strip() == "" and p.stderr.strip(), \
        f"12 samples with padlen 12: exit {p.returncode}, expected 2 with a message on stderr only"


def test_errors_and_input_format():
    rng = random.Random(17)
    b, a = random_filter(rng, 2)
    x = random_signal(rng, 40)
    raw = "\n" + "".join(f"{v!r}\n\n" if i % 7 == 0 else f"{v!r}\n" for i, v in enumerate(x)) + "\n"
    p = run(b, a, x, raw_signal=raw)
    assert p.returncode == 0, p.stderr[-1000:]
    want = direct_form(b, a, x)
    got = [float(v) for v in p.stdout.split()]
    assert len(got) == len(want) and all(abs(g - w) <= 1e-9 * (1 + max(map(abs, want))) for g, w in zip(got, want)), \
        "blank lines in the signal file must be ignored"
    for bb, aa, xx, opts, what in ((b, [0.0] + a[1:], x, (), "a[0] == 0"),
                                   (b, a, x, ("--mode", "sosfilt"), "unknown mode"),
                                   (b, a, [], (), "empty signal")):
        p = run(bb, aa, xx, *opts)
        assert p.returncode == 2, f"{what}: exit {p.returncode}, expected 2"
        assert p.stdout.strip() == "" and p.stderr.strip(), f"{what}: message on stderr only"
