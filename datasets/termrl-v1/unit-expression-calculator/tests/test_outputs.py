import os
import random
import shutil
import subprocess

import pytest

PROG = "/app/calc.py"
BASE = ["m", "kg", "s", "A", "K", "mol"]


def D(m=0, kg=0, s=0, A=0, K=0, mol=0):
    return (m, kg, s, A, K, mol)


# SI factor and dimension of each unit, written out independently of /app/units.txt
FT = 0.3048
LBF = 4.4482216152605
TABLE = {
    "m": (1.0, D(m=1)), "kg": (1.0, D(kg=1)), "s": (1.0, D(s=1)), "A": (1.0, D(A=1)), "K": (1.0, D(K=1)),
    "mol": (1.0, D(mol=1)),
    "N": (1.0, D(1, 1, -2)), "J": (1.0, D(2, 1, -2)), "W": (1.0, D(2, 1, -3)), "Pa": (1.0, D(-1, 1, -2)),
    "Hz": (1.0, D(s=-1)), "C": (1.0, D(s=1, A=1)), "V": (1.0, D(2, 1, -3, -1)), "ohm": (1.0, D(2, 1, -3, -2)),
    "g": (1e-3, D(kg=1)), "min": (60.0, D(s=1)), "h": (3600.0, D(s=1)), "d": (86400.0, D(s=1)),
    "L": (1e-3, D(m=3)), "eV": (1.602176634e-19, D(2, 1, -2)), "inch": (0.0254, D(m=1)), "ft": (FT, D(m=1)),
    "mi": (5280 * FT, D(m=1)), "lb": (0.45359237, D(kg=1)), "lbf": (LBF, D(1, 1, -2)),
    "psi": (LBF / 0.0254 ** 2, D(-1, 1, -2)), "mph": (5280 * FT / 3600, D(1, 0, -1)), "cal": (4.184, D(2, 1, -2)),
    "bar": (1e5, D(-1, 1, -2)), "atm": (101325.0, D(-1, 1, -2)),
}
PREFIX = {"n": 1e-9, "u": 1e-6, "m": 1e-3, "c": 1e-2, "k": 1e3, "M": 1e6, "G": 1e9}
# prefixed names that are unambiguous (the bare name is not itself a unit)
PREFIXABLE = ["m", "s", "g", "N", "J", "W", "Pa", "V", "eV", "L", "Hz", "A", "ohm", "cal", "bar"]


def run(expr, to=None):
    # a leading space keeps an expression such as '-2 m' from looking like a command-line option
    expr = " " + expr if expr.startswith("-") else expr
    cmd = ["python3", PROG, expr] + (["--to", to] if to is not None else [])
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def unit_text(name_dims, rng):
    """A unit-only expression in base units for dims, e.g. 'kg*m^2/s^2' or 'kg m^2 s^-2'."""
    dims = name_dims
    if rng.random() < 0.5:
        parts = [b if e == 1 else f"{b}^{e}" for b, e in zip(BASE, dims) if e]
        return " ".join(parts) if parts else "1"
    num = [b if e == 1 else f"{b}^{e}" for b, e in zip(BASE, dims) if e > 0]
    den = [b if e == -1 else f"{b}^{-e}" for b, e in zip(BASE, dims) if e < 0]
    txt = "*".join(num) if num else "1"
    for d in den:
        txt += "/" + d
    return txt


def leaf(rng):
    if rng.random() < 0.35:
        v = rng.choice([rng.randint(1, 50), round(rng.uniform(0.1, 20), 3), rng.randint(1, 9) * 10 ** rng.randint(-4, 4)])
        txt = repr(float(v)) if rng.random() < 0.3 else (f"{v:g}" if isinstance(v, float) else str(v))
        if rng.random() < 0.15:
            txt = f"{float(v):.3e}"
            v = float(txt)
        return txt, float(v), D()
    name = rng.choice(list(TABLE))
    f, d = TABLE[name]
    if rng.random() < 0.35:
        name = rng.choice(PREFIXABLE)
        f, d = TABLE[name]
        p = rng.choice(list(PREFIX))
        if p + name in TABLE:
            f, d = TABLE[p + name]
        else:
            f = f * PREFIX[p]
        name = p + name
    return name, f, d


def gen(rng, depth):
    """Return (text, value, dims, level); level: 0 atom, 1 power, 2 product, 3 neg, 4 sum."""
    r = rng.random()
    if depth == 0 or r < 0.2:
        t, v, d = leaf(rng)
        return t, v, d, 0
    if r < 0.35:
        t, v, d, lv = gen(rng, depth - 1)
        if lv > 0:
            t = f"({t})"
        e = rng.choice([-3, -2, -1, 2, 3])
        return f"{t}^{e}", v ** e, tuple(x * e for x in d), 1
    if r < 0.7:
        a = gen(rng, depth - 1)
        b = gen(rng, depth - 1)
        ta = a[0] if a[3] <= 2 else f"({a[0]})"
        tb = b[0] if b[3] <= 1 else f"({b[0]})"
        op = rng.choice(["*", "/", " "])
        if op == "/":
            return f"{ta}/{tb}", a[1] / b[1], tuple(x - y for x, y in zip(a[2], b[2])), 2
        return (f"{ta} {tb}" if op == " " else f"{ta}*{tb}"), a[1] * b[1], tuple(x + y for x, y in zip(a[2], b[2])), 2
    if r < 0.8:
        a = gen(rng, depth - 1)
        ta = a[0] if a[3] <= 2 else f"({a[0]})"
        return f"-{ta}", -a[1], a[2], 3
    a = gen(rng, depth - 1)
    k = round(rng.uniform(0.5, 5), 2)
    same = [n for n, (f, d) in TABLE.items() if d == a[2]]
    if same and rng.random() < 0.6:
        n = rng.choice(same)
        tb, vb = f"{k} {n}", k * TABLE[n][0]
    else:
        u = unit_text(a[2], rng)
        tb, vb = (f"{k} {u}" if u != "1" else f"{k}"), k
        if "/" in u:
            tb = f"{k} ({u})" if rng.random() < 0.5 else f"{k}*{u}"
    ta = a[0] if a[3] <= 4 else f"({a[0]})"
    op = rng.choice("+-")
    return f"{ta} {op} {tb}", (a[1] + vb if op == "+" else a[1] - vb), a[2], 4


def parse_out(out):
    parts = out.split()
    return float(parts[0]), parts[1:]


def expect_units(d):
    return [b if e == 1 else f"{b}^{e}" for b, e in zip(BASE, d) if e]


def close(g, w):
    return abs(g - w) <= 1e-9 * max(abs(w), 1e-300)


def check_expr(t, v, d):
    p = run(t)
    assert p.returncode == 0, f"{t!r}: exit {p.returncode}: {p.stderr[-500:]}"
    lines = p.stdout.strip().splitlines()
    assert len(lines) == 1, f"{t!r}: expected one line, got {p.stdout!r}"
    g, units = parse_out(lines[0])
    assert units == expect_units(d), f"{t!r}: units {units}, expected {expect_units(d)}"
    assert close(g, v), f"{t!r}: value {g}, expected {v}"


def test_simple_quantities():
    cases = [("3 km", 3000.0, D(m=1)), ("9.81 m/s^2", 9.81, D(1, 0, -2)), ("2 min", 120.0, D(s=1)),
             ("5 mi", 5 * 5280 * FT, D(m=1)), ("250 mg", 2.5e-4, D(kg=1)), ("1.5 kPa", 1500.0, D(-1, 1, -2)),
             ("3 ms", 0.003, D(s=1)), ("2 GeV", 2e9 * 1.602176634e-19, D(2, 1, -2)), ("40 mph", 40 * 5280 * FT / 3600, D(1, 0, -1)),
             ("2^10", 1024.0, D()), (".5 L", 5e-4, D(m=3)), ("1e-3 kg", 1e-3, D(kg=1))]
    for t, v, d in cases:
        check_expr(t, v, d)


def test_precedence_and_associativity():
    cases = [("kg/m*s", 1.0, D(-1, 1, 1)), ("6 m/2 s", 3.0, D(1, 0, 1)), ("6 m/(2 s)", 3.0, D(1, 0, -1)),
             ("-2 m^2", -2.0, D(m=2)), ("2 m + 3 m * 4", 14.0, D(m=1)), ("10 m - 4 m - 3 m", 3.0, D(m=1)),
             ("(2 m)^3", 8.0, D(m=3)), ("2 m^3", 2.0, D(m=3)), ("N*s^-2*s^2/kg", 1.0, D(1, 0, -2)),
             ("1/2 s", 0.5, D(s=1)), ("-3^2", -9.0, D()), ("2*3^-2 m", 2 / 9, D(m=1)), ("- (3 J - 1 J) / 2", -1.0, D(2, 1, -2))]
    for t, v, d in cases:
        check_expr(t, v, d)


def test_random_expressions():
    rng = random.Random(4242)
    n = 0
    while n < 50:
        t, v, d, _ = gen(rng, 3)
        if not (1e-250 < abs(v) < 1e250):
            continue
        check_expr(t, v, d)
        n += 1


def test_conversion_with_to():
    rng = random.Random(777)
    for _ in range(16):
        t, v, d, _ = gen(rng, 2)
        if not (1e-250 < abs(v) < 1e250):
            continue
        same = [n for n, (f, dd) in TABLE.items() if dd == d]
        if same and rng.random() < 0.7:
            name = rng.choice(same)
            target, fv = name, TABLE[name][0]
            if name in PREFIXABLE and rng.random() < 0.5:
                p = rng.choice("kMmu")
                target, fv = p + name, fv * PREFIX[p]
        else:
            target, fv = unit_text(d, rng), 1.0
        p = run(t, to=target)
        assert p.returncode == 0, f"{t!r} --to {target!r}: {p.stderr[-300:]}"
        g = float(p.stdout.strip())
        assert close(g, v / fv), f"{t!r} --to {target!r}: {g}, expected {v / fv}"
    p = run("1 atm", to="psi")
    assert close(float(p.stdout), 101325.0 / (LBF / 0.0254 ** 2))


def test_errors():
    ok = run("3 m + 2 m")
    assert ok.returncode == 0 and ok.stdout.strip(), "a valid expression must succeed before the error cases count"
    for expr, to in [("3 m + 2 s", None), ("2 furlong", None), ("3 * (2 m", None), ("5 m", "s"), ("1 J", "N"),
                     ("2 kg - 1 N", None), ("4 xm", None), ("3 +", None)]:
        p = run(expr, to)
        assert p.returncode == 2, f"{expr!r} --to {to!r}: exit {p.returncode}, expected 2"
        assert p.stdout.strip() == "" and p.stderr.strip(), f"{expr!r}: message on stderr only"


@pytest.fixture
def custom_units():
    shutil.copy("/app/units.txt", "/tmp/units.txt.orig")
    with open("/app/units.txt", "w") as fh:
        fh.write("# custom table\nN = kg*m/s^2\nft = 0.3048*m\nfur = 660 ft\nfortnight = 14*24*3600*s\n"
                 "g = 0.001 kg\nstone = 6350.29318 g\nkn = 1852 m/(3600 s)\n\nJ = N m\n")
    yield
    shutil.copy("/tmp/units.txt.orig", "/app/units.txt")


def test_units_file_read_at_run_time(custom_units):
    check_expr("3 fur/fortnight", 3 * 660 * FT / (14 * 86400), D(1, 0, -1))
    check_expr("2 stone", 2 * 6.35029318, D(kg=1))
    p = run("10 kn", to="m/s")
    assert p.returncode == 0 and close(float(p.stdout), 10 * 1852 / 3600)
    p = run("2 min")
    assert p.returncode == 2, "min is not defined in this units.txt: must be an error"
    check_expr("5 kJ", 5000.0, D(2, 1, -2))
