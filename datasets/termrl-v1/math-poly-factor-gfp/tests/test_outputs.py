import random
import re
import subprocess
import time
import resource
import signal


# Speed limits measure CPU time, not wall-clock time: other work on the machine stretches the second,
# never the first. Each program runs under RLIMIT_CPU (its limit plus a margin); the wall-clock timeout
# is only a hang guard for a program that blocks without using CPU.
HANG_GUARD_S = 600


def run_cpu(cmd, cpu_limit, name, **kwargs):
    """Run ``cmd``; return (completed process, CPU seconds it used: user + system, from getrusage).
    RLIMIT_CPU stops it once it has used ``cpu_limit`` seconds of CPU."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, timeout=HANG_GUARD_S, preexec_fn=limit, **kwargs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode not in (-signal.SIGXCPU, -signal.SIGKILL), f"{name} used more than {cpu_limit} s of CPU time"
    return proc, cpu

PRIMES_SMALL = [2, 3, 5, 7]
PRIMES_LARGE = [101, 7919, 65521, 1048573]


# ---- independent polynomial arithmetic over GF(p); lists are low-degree-first ----
def norm(a):
    a = list(a)
    while a and a[-1] == 0:
        a.pop()
    return a


def pmul(a, b, p):
    if not a or not b:
        return []
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] = (out[i + j] + x * y) % p
    return norm(out)


def prem(a, m, p):
    a = list(a)
    inv = pow(m[-1], p - 2, p)
    while len(a) >= len(m):
        c = a[-1] * inv % p
        shift = len(a) - len(m)
        for i, y in enumerate(m):
            a[shift + i] = (a[shift + i] - c * y) % p
        a = norm(a)
    return a


def pgcd(a, b, p):
    while b:
        a, b = b, prem(a, b, p)
    return a


def frob(a, m, p):
    """a^p mod m"""
    result, base, e = [1], prem(a, m, p), p
    while e:
        if e & 1:
            result = prem(pmul(result, base, p), m, p)
        base = prem(pmul(base, base, p), m, p)
        e >>= 1
    return result


def prime_factors(n):
    out, d = set(), 2
    while d * d <= n:
        while n % d == 0:
            out.add(d)
            n //= d
        d += 1
    if n > 1:
        out.add(n)
    return out


def irreducible(f, p):
    """Rabin's test for a monic f of degree n >= 1."""
    n = len(f) - 1
    if n == 1:
        return True
    x = [0, 1]
    powers = [prem(x, f, p)]
    for _ in range(n):
        powers.append(frob(powers[-1], f, p))   # powers[k] = x^(p^k) mod f
    if norm([(c - d) % p for c, d in zip(powers[n] + [0] * 2, [0, 1] + [0] * len(powers[n]))]) != []:
        return False
    for q in prime_factors(n):
        h = powers[n // q]
        diff = norm([((h[i] if i < len(h) else 0) - (1 if i == 1 else 0)) % p for i in range(max(len(h), 2))])
        g = pgcd(f, diff, p)
        if len(g) > 1:
            return False
    return True


def random_irreducible(rng, p, d):
    while True:
        f = [rng.randrange(p) for _ in range(d)] + [1]
        if irreducible(f, p):
            return f


def to_line(p, f):
    return " ".join([str(p)] + [str(c) for c in reversed(f)])


TOKEN = re.compile(r"\(([^)]*)\)\^(\d+)")


def parse(line):
    line = line.strip()
    head, _, rest = line.partition(" ")
    lc = int(head)
    facs = [([int(c) for c in reversed(m.group(1).split())], int(m.group(2))) for m in TOKEN.finditer(rest)]
    assert TOKEN.sub("", rest).strip() == "", f"unparseable output: {line!r}"
    return lc, facs


def run(lines, cpu_limit=120):
    proc, elapsed = run_cpu(["python3", "/app/polyfactor.py"], cpu_limit, "polyfactor.py",
                            input="\n".join(lines) + "\n", text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = [l for l in proc.stdout.splitlines() if l.strip()]
    assert len(out) == len(lines)
    return [parse(l) for l in out], elapsed


def constructed_case(rng, p, max_deg=30):
    facs, total = [], 0
    degs = set()
    while True:
        d = rng.choice([1, 1, 2, 2, 3, 4, 5, 6])
        m = rng.choice([1, 1, 1, 2, 3] + ([p, p + 1, 2 * p] if p <= 5 else []))
        if total + d * m > max_deg:
            break
        g = random_irreducible(rng, p, d)
        if any(g == h for h, _ in facs):
            continue
        facs.append((g, m))
        total += d * m
    if not facs:
        facs = [([rng.randrange(p), 1], 1)]
    lc = rng.randrange(1, p)
    f = [lc]
    for g, m in facs:
        for _ in range(m):
            f = pmul(f, g, p)
    expected = sorted(facs, key=lambda t: (len(t[0]), list(reversed(t[0]))))
    return f, lc, expected


def check_valid(p, f, lc, facs):
    assert lc == f[-1] % p
    prod = [lc]
    for g, m in facs:
        assert g[-1] == 1, "factors must be monic"
        assert all(0 <= c < p for c in g)
        assert len(g) >= 2 and m >= 1
        for _ in range(m):
            prod = pmul(prod, g, p)
    assert prod == norm([c % p for c in f]), "product of factors differs from the input"
    keys = [(len(g), list(reversed(g))) for g, _ in facs]
    assert keys == sorted(keys) and len(set(map(str, keys))) == len(keys), "factors must be distinct and sorted"
    for g, _ in facs:
        assert irreducible(g, p), f"factor {g} is reducible"


def test_examples_from_instruction():
    res, _ = run(["5 1 0 1", "3 1 0 0 2 0 0 1", "7 3 1 4 1 5 9 2 6"])
    assert res[0] == (1, [([2, 1], 1), ([3, 1], 1)])
    assert res[1] == (1, [([1, 1], 6)])
    assert res[2] == (3, [([2, 1], 1), ([6, 6, 1], 1), ([6, 0, 5, 4, 1], 1)])


def test_small_characteristic_with_high_multiplicities():
    rng = random.Random(11)
    cases = [constructed_case(rng, p) for p in PRIMES_SMALL for _ in range(5)]
    lines = [to_line(p, f) for p, (f, _, _) in zip([p for p in PRIMES_SMALL for _ in range(5)], cases)]
    res, _ = run(lines)
    for (f, lc, expected), got in zip(cases, res):
        assert got == (lc, expected)


def test_large_primes_constructed():
    rng = random.Random(23)
    ps = [p for p in PRIMES_LARGE for _ in range(4)]
    cases = [constructed_case(rng, p) for p in ps]
    res, _ = run([to_line(p, f) for p, (f, _, _) in zip(ps, cases)])
    for (f, lc, expected), got in zip(cases, res):
        assert got == (lc, expected)


def test_random_polynomials_verified():
    rng = random.Random(37)
    items = []
    for _ in range(12):
        p = rng.choice(PRIMES_SMALL + PRIMES_LARGE)
        d = rng.randint(8, 30)
        f = [rng.randrange(p) for _ in range(d)] + [rng.randrange(1, p)]
        items.append((p, f))
    res, _ = run([to_line(p, f) for p, f in items])
    for (p, f), (lc, facs) in zip(items, res):
        check_valid(p, f, lc, facs)


def test_many_equal_degree_factors():
    # products of several distinct irreducibles of the same degree force a real equal-degree split
    rng = random.Random(41)
    items = []
    for p, d, k in [(2, 4, 3), (3, 3, 4), (65521, 5, 4), (1048573, 6, 5), (7919, 2, 10), (2, 1, 2)]:
        gs = []
        while len(gs) < k:
            g = random_irreducible(rng, p, d)
            if g not in gs:
                gs.append(g)
        f = [1]
        for g in gs:
            f = pmul(f, g, p)
        items.append((p, f, sorted(gs, key=lambda g: list(reversed(g)))))
    res, elapsed = run([to_line(p, f) for p, f, _ in items])
    for (p, f, gs), (lc, facs) in zip(items, res):
        assert lc == 1
        assert facs == [(g, 1) for g in gs]


def test_irreducible_inputs_and_linear():
    rng = random.Random(53)
    items = [(p, random_irreducible(rng, p, d)) for p, d in [(2, 17), (3, 12), (1048573, 9), (101, 25)]]
    items.append((13, [5, 7]))  # 7x + 5
    res, _ = run([to_line(p, f) for p, f in items])
    for (p, f), (lc, facs) in zip(items, res):
        assert len(facs) == 1 and facs[0][1] == 1
        check_valid(p, f, lc, facs)
