import os
import random
import subprocess
import tempfile

PROG = "/app/spline.py"


# ---------- independent reference: the full 4(n-1) system of piece coefficients ----------
def gauss(A, b):
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        piv = M[c][c]
        M[c] = [v / piv for v in M[c]]
        for r in range(n):
            if r != c and M[r][c]:
                f = M[r][c]
                M[r] = [vr - f * vc for vr, vc in zip(M[r], M[c])]
    return [M[r][n] for r in range(n)]


def ref_spline(pts, kind, slopes=None):
    pts = sorted(pts)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    m = len(xs) - 1
    N = 4 * m
    rows, rhs = [], []

    def eq(entries, v):
        r = [0.0] * N
        for k, c in entries:
            r[k] += c
        rows.append(r)
        rhs.append(v)

    for i in range(m):
        h = xs[i + 1] - xs[i]
        a, b, c, d = 4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3
        eq([(a, 1)], ys[i])
        eq([(a, 1), (b, h), (c, h * h), (d, h ** 3)], ys[i + 1])
        if i < m - 1:
            eq([(b, 1), (c, 2 * h), (d, 3 * h * h), (4 * i + 5, -1)], 0.0)
            eq([(c, 2), (d, 6 * h), (4 * i + 6, -2)], 0.0)
    hl = xs[-1] - xs[-2]
    L = 4 * (m - 1)
    if kind == "natural":
        eq([(2, 2)], 0.0)
        eq([(L + 2, 2), (L + 3, 6 * hl)], 0.0)
    elif kind == "clamped":
        eq([(1, 1)], slopes[0])
        eq([(L + 1, 1), (L + 2, 2 * hl), (L + 3, 3 * hl * hl)], slopes[1])
    elif kind == "not-a-knot":
        eq([(3, 1), (7, -1)], 0.0)
        eq([(L - 1, 1), (L + 3, -1)], 0.0)
    else:
        eq([(1, 1), (L + 1, -1), (L + 2, -2 * hl), (L + 3, -3 * hl * hl)], 0.0)
        eq([(2, 2), (L + 2, -2), (L + 3, -6 * hl)], 0.0)
    co = gauss(rows, rhs)
    pieces = [co[4 * i:4 * i + 4] for i in range(m)]

    def prim(i, t):
        a, b, c, d = pieces[i]
        return a * t + b * t ** 2 / 2 + c * t ** 3 / 3 + d * t ** 4 / 4

    def at(x):
        i = 0
        while i < m - 1 and x >= xs[i + 1]:
            i += 1
        a, b, c, d = pieces[i]
        t = x - xs[i]
        area = sum(prim(j, xs[j + 1] - xs[j]) for j in range(i)) + prim(i, t)
        return a + b * t + c * t * t + d * t ** 3, b + 2 * c * t + 3 * d * t * t, area

    return at


# ---------- helpers ----------
def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, "w") as fh:
        fh.write(text)
    return p


def run(pts, queries, *opts, shuffle_seed=0):
    d = tempfile.mkdtemp()
    rows = list(pts)
    random.Random(shuffle_seed).shuffle(rows)
    sp = write(d, "s.csv", "x,y\n" + "".join(f"{x!r},{y!r}\n" for x, y in rows))
    qp = write(d, "q.txt", "".join(f"{q!r}\n" for q in queries))
    return subprocess.run(["python3", PROG, sp, qp, *opts], capture_output=True, text=True, timeout=300)


def check(pts, queries, kind, slopes=None, seed=0):
    opts = ["--bc", kind] + (["--slopes", f"{slopes[0]!r},{slopes[1]!r}"] if slopes else [])
    proc = run(pts, queries, *opts, shuffle_seed=seed)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [l for l in proc.stdout.splitlines() if l.strip()]
    assert len(lines) == len(queries), f"{len(lines)} output lines for {len(queries)} queries"
    at = ref_spline(pts, kind, slopes)
    for q, line in zip(queries, lines):
        got = [float(v) for v in line.split(",")]
        want = at(q)
        for name, g, w in zip(("s", "ds", "area"), got, want):
            assert abs(g - w) <= 1e-7 * (1 + abs(w)), f"{kind} x={q}: {name} = {g}, expected {w}"


def random_points(rng, n, periodic=False):
    xs = sorted(rng.sample(range(0, 2000), n))
    xs = [x / 200 + rng.uniform(0, 0.004) for x in xs]
    ys = [rng.uniform(-5, 5) for _ in xs]
    if periodic:
        ys[-1] = ys[0]
    return list(zip(xs, ys))


def queries(rng, pts, k=60):
    lo, hi = min(p[0] for p in pts), max(p[0] for p in pts)
    qs = [rng.uniform(lo, hi) for _ in range(k)] + [p[0] for p in pts[::3]]
    return qs + [lo - 0.7, lo - 0.05, hi + 0.05, hi + 1.3]


def test_natural():
    rng = random.Random(101)
    for n in (2, 3, 9, 20):
        pts = random_points(rng, n)
        check(pts, queries(rng, pts), "natural", seed=n)


def test_clamped():
    rng = random.Random(202)
    for n in (2, 5, 17):
        pts = random_points(rng, n)
        check(pts, queries(rng, pts), "clamped", slopes=(rng.uniform(-3, 3), rng.uniform(-3, 3)), seed=n)


def test_not_a_knot():
    rng = random.Random(303)
    for n in (4, 5, 12, 25):
        pts = random_points(rng, n)
        check(pts, queries(rng, pts), "not-a-knot", seed=n)


def test_periodic():
    rng = random.Random(404)
    for n in (3, 6, 15):
        pts = random_points(rng, n, periodic=True)
        check(pts, queries(rng, pts), "periodic", seed=n)


def test_reproduces_cubic_exactly():
    # a cubic polynomial is its own not-a-knot spline, and its own clamped spline with the true end slopes
    rng = random.Random(505)
    c = [rng.uniform(-2, 2) for _ in range(4)]
    f = lambda x: c[0] + c[1] * x + c[2] * x * x + c[3] * x ** 3
    df = lambda x: c[1] + 2 * c[2] * x + 3 * c[3] * x * x
    F = lambda x: c[0] * x + c[1] * x * x / 2 + c[2] * x ** 3 / 3 + c[3] * x ** 4 / 4
    pts = [(x, f(x)) for x, _ in random_points(rng, 8)]
    lo, hi = pts[0][0], pts[-1][0]
    qs = [lo - 1.0, lo + 0.3, (lo + hi) / 2, hi + 0.8]
    for opts in (["--bc", "not-a-knot"], ["--bc", "clamped", "--slopes", f"{df(lo)!r},{df(hi)!r}"]):
        proc = run(pts, qs, *opts, shuffle_seed=5)
        assert proc.returncode == 0, proc.stderr[-2000:]
        for q, line in zip(qs, proc.stdout.split()):
            s, ds, area = (float(v) for v in line.split(","))
            for name, g, w in (("s", s, f(q)), ("ds", ds, df(q)), ("area", area, F(q) - F(lo))):
                assert abs(g - w) <= 1e-6 * (1 + abs(w)), f"{opts[1]} on a cubic, x={q}: {name} {g} != {w}"


def test_errors():
    rng = random.Random(606)
    pts = random_points(rng, 6)
    three = pts[:3]
    ok = run(pts, [0.5], "--bc", "natural")
    assert ok.returncode == 0 and ok.stdout.strip(), "a valid call must succeed before the error cases count"
    for opts, data in ((["--bc", "not-a-knot"], three), (["--bc", "periodic"], pts),
                       (["--bc", "clamped"], pts), (["--bc", "akima"], pts), (["--bc", "natural"], pts[:1]),
                       (["--bc", "periodic"], [(0.0, 1.0), (1.0, 1.0)])):
        proc = run(data, [0.5], *opts)
        assert proc.returncode == 2, f"{opts} on {len(data)} samples: exit {proc.returncode}, expected 2"
        assert proc.stdout.strip() == "" and proc.stderr.strip(), f"{opts}: message on stderr only"
