import os
import random
import subprocess
import tempfile
from fractions import Fraction
from math import gcd

# ---------- exact polynomial helpers (lowest degree first) ----------


def trim(p):
    p = list(p)
    while p and p[-1] == 0:
        p.pop()
    return p


def mul(a, b):
    r = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            r[i + j] += x * y
    return r


def deriv(p):
    return [i * p[i] for i in range(1, len(p))]


def ev(p, x):
    r = Fraction(0)
    for c in reversed(p):
        r = r * x + c
    return r


def sgn_at(p, x):
    """sign of the integer polynomial p at the rational x (homogeneous integer evaluation, d > 0)."""
    n, d = x.numerator, x.denominator
    v, dp = 0, 1
    for c in reversed(p):
        v = v * n + c * dp
        dp *= d
    return (v > 0) - (v < 0)


def content_free(p):
    g = 0
    for c in p:
        g = gcd(g, c)
    return [c // g for c in p] if g > 1 else list(p)


def to_int(p):
    den = 1
    for c in p:
        c = Fraction(c)
        den = den * c.denominator // gcd(den, c.denominator)
    return content_free([int(Fraction(c) * den) for c in p])


def rem(a, b):
    """remainder of a by b as a primitive integer polynomial with the sign of the true remainder."""
    a = [Fraction(c) for c in a]
    while len(a) >= len(b) and a:
        f = a[-1] / b[-1]
        s = len(a) - len(b)
        for i, c in enumerate(b):
            a[s + i] -= f * c
        a = trim(a)
    return to_int(a) if a else []


def gcd_poly(a, b):
    a, b = to_int(trim(a)), to_int(trim(b))
    while b:
        a, b = b, rem(a, b)
    return a


def sturm_chain(p):
    chain = [to_int(p), to_int(deriv(p))]
    while len(chain[-1]) > 0:
        r = rem(chain[-2], chain[-1])
        if not r:
            break
        chain.append([-c for c in r])
    return [q for q in chain if q]


def sign_changes(signs):
    signs = [s for s in signs if s != 0]
    return sum(1 for i in range(1, len(signs)) if signs[i] != signs[i - 1])


def count_between(chain, a, b):
    """distinct real roots of chain[0] in (a, b); a, b not roots. None stands for -inf / +inf."""
    def at(x, side):
        out = []
        for q in chain:
            if x is None:
                lead = 1 if q[-1] > 0 else -1
                deg = len(q) - 1
                out.append(lead if side > 0 or deg % 2 == 0 else -lead)
            else:
                out.append(sgn_at(q, x))
        return sign_changes(out)
    return at(a, -1) - at(b, 1)


# ---------- test inputs ----------


def power(f, m):
    r = [1]
    for _ in range(m):
        r = mul(r, f)
    return r


def wilkinson(n):
    p = [1]
    for i in range(1, n + 1):
        p = mul(p, [-i, 1])
    return p


def mignotte(d, a):
    p = [0] * (d + 1)
    p[d] = 1
    for i, c in enumerate(mul([-1, a], [-1, a])):
        p[i] -= 2 * c
    return p


def rational_roots_poly(rng, k):
    p = [1]
    for _ in range(k):
        den = rng.choice([1, 1, 2, 4, 8, 3, 5, 16])
        num = rng.randint(-6 * den, 6 * den)
        p = mul(p, power([-num, den], rng.choice([1, 1, 1, 2, 3, 4])))
    return p


def run(polys):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        for p in polys:
            fh.write(" ".join(str(c) for c in reversed(p)) + "\n")
    try:
        proc = subprocess.run(["python3", "/app/roots.py", fh.name], capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [ln for ln in proc.stdout.split("\n") if ln.strip()]
    assert len(lines) == len(polys), f"expected {len(polys)} lines, got {len(lines)}"
    return lines


WIDTH = Fraction(1, 10 ** 12)


def verify(p, line):
    p = trim(p)
    tag = "polynomial (highest first): " + " ".join(str(c) for c in reversed(p))[:300]
    chain = sturm_chain(p)
    total = count_between(chain, None, None)
    tok = line.split()
    r = int(tok[0])
    assert r == total, f"{tag}\nexpected {total} distinct real roots, got {r}"
    assert len(tok) == 1 + 3 * r, f"{tag}\nbad token count in: {line[:300]}"
    gchains = []
    d = deriv(p)
    while d:
        g = gcd_poly(p, d)
        if len(g) < 2:
            break
        gchains.append(sturm_chain(g))
        d = deriv(d)
    prev = None
    for i in range(r):
        a, b, m = Fraction(tok[1 + 3 * i]), Fraction(tok[2 + 3 * i]), int(tok[3 + 3 * i])
        where = f"{tag}\nroot #{i + 1}: ({tok[1 + 3 * i]}, {tok[2 + 3 * i]}) x{m}"
        assert a < b and b - a <= WIDTH, f"{where}: need a < b and b - a <= 1e-12"
        assert prev is None or prev <= a, f"{where}: intervals out of order or overlapping"
        prev = b
        assert sgn_at(p, a) != 0 and sgn_at(p, b) != 0, f"{where}: an endpoint is a root"
        assert count_between(chain, a, b) == 1, f"{where}: interval does not hold exactly one root"
        # multiplicity: number of k >= 0 with the root also a root of p^(k)
        want = 1
        for gc in gchains:
            if count_between(gc, a, b) == 0:
                break
            want += 1
        assert m == want, f"{where}: multiplicity should be {want}"


def check(polys):
    for p, line in zip(polys, run(polys)):
        verify(p, line)


def test_example_file():
    lines = [ln.split() for ln in open("/app/examples/polys.txt") if ln.strip()]
    polys = [[int(t) for t in reversed(ln)] for ln in lines]
    check(polys)


def test_rational_roots_with_multiplicities():
    rng = random.Random(8101)
    polys = [rational_roots_poly(rng, rng.randint(1, 6)) for _ in range(25)]
    polys += [[0, 1], [0, 0, 0, 1], mul(power([0, 1], 2), power([-1, 2], 3)), power([1, 2], 5),
              mul(power([-3, 4], 2), power([3, 4], 2))]
    check(polys)


def test_irrational_and_missing_real_roots():
    rng = random.Random(8102)
    polys = [[1, 0, 0, 0, 1], [2, 0, 1], [-2, 0, 1], [-2, 0, 0, 1], [1, 1, 1], mul([1, 0, 1], [-3, 0, 1])]
    for _ in range(12):
        f = [1]
        for _ in range(rng.randint(1, 4)):
            d = rng.randint(1, 50)
            f = mul(f, [rng.choice([-d, d]), rng.randint(-3, 3), rng.randint(1, 4)])
        polys.append(mul(f, power([-rng.randint(1, 9), 1], rng.randint(0, 2))))
    polys.append(power(mul([-2, 0, 1], [-3, 0, 1]), 3))
    check(polys)


def test_wilkinson_polynomials():
    w = wilkinson(20)
    wp = [c * 2 ** 23 for c in w]
    wp[19] -= 1  # the classic perturbation of the x^19 coefficient by 2^-23
    check([w, wp, wilkinson(13), mul(wilkinson(8), wilkinson(8))])


def test_mignotte_close_root_pairs():
    polys = [mignotte(d, a) for d, a in ((5, 10), (7, 20), (9, 50), (11, 100), (13, 300), (20, 1000))]
    polys.append(mul([-2, 0, 1], [-(2 * 10 ** 30 + 1), 0, 10 ** 30]))
    polys.append(mul([-1, 3], [-(3 * 10 ** 25 + 1), 9 * 10 ** 25]))
    check(polys)


def test_huge_and_tiny_roots():
    polys = [mul([-10 ** 15, 1], [-1, 10 ** 15]), mul([10 ** 30 + 7, 1], [-3, 10 ** 20]),
             [-(10 ** 40), 0, 1], [1, 0, -(10 ** 40)], mul(power([-(10 ** 12), 1], 2), [1, 10 ** 12])]
    check(polys)


def test_random_dense_polynomials():
    rng = random.Random(8103)
    polys = []
    for _ in range(12):
        p = [rng.randint(-10 ** 20, 10 ** 20) for _ in range(rng.randint(3, 18))]
        if p[-1] == 0:
            p[-1] = 1
        p = mul(p, power([-rng.randint(-4, 4), rng.choice([1, 2, 4])], rng.randint(0, 3)))
        p = mul(p, [-rng.randint(2, 30), 0, 1])
        polys.append(p)
    check(polys)


def test_degree_forty():
    rng = random.Random(8104)
    polys = [[rng.randint(-10 ** 40, 10 ** 40) for _ in range(41)] for _ in range(2)]
    twice = [1]
    for i in range(1, 21):
        twice = mul(twice, power([-i, 2], 2))  # 20 double roots at 1/2, 1, 3/2, ..., 10
    polys.append(twice)
    check(polys)
