"""/app/twosq on numbers built here from prime factorizations chosen at test time: the count of
representations follows from the factorization (r2 formula), every printed pair is checked, and each run
is held to 10 s of CPU time (RLIMIT_CPU; a loaded machine does not change CPU time)."""
import math
import os
import random
import resource
import subprocess

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/twosq"
LIMIT = 10 ** 18


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (10, 11))


def run(*args):
    return subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=600,
                          preexec_fn=limit_cpu)


def is_prime(n):
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    if n in small:
        return True
    if any(n % p == 0 for p in small):
        return False
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in small:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def prime(lo, hi, mod4):
    while True:
        p = RNG.randrange(lo, hi) | 1
        if p % 4 == mod4 and is_prime(p):
            return p


def expected_pairs(factors):
    """Pairs a >= b >= 0 from the factorization {p: e}: r2 = 4 * prod(e+1) over p = 1 (mod 4) when every
    p = 3 (mod 4) has an even exponent; orbits of 8, except the axis and diagonal points (4 each)."""
    if any(p % 4 == 3 and e % 2 for p, e in factors.items()):
        return 0
    r2 = 4 * math.prod(e + 1 for p, e in factors.items() if p % 4 == 1)
    n = math.prod(p ** e for p, e in factors.items())
    square = math.isqrt(n) ** 2 == n
    twice = n % 2 == 0 and math.isqrt(n // 2) ** 2 == n // 2
    special = int(square) + int(twice)
    return (r2 - 4 * special) // 8 + special


def check(factors):
    n = math.prod(p ** e for p, e in factors.items())
    assert 1 <= n <= LIMIT, factors
    r = run(n)
    assert r.returncode == 0, f"N={n}: exit {r.returncode} (killed by the CPU limit if -24/-9) {r.stderr[-300:]}"
    lines = r.stdout.splitlines()
    pairs = [tuple(map(int, line.split(" "))) for line in lines]
    assert all(len(p) == 2 for p in pairs), lines[:3]
    for a, b in pairs:
        assert a >= b >= 0 and a * a + b * b == n, f"N={n}: {a} {b} is not a representation"
    assert [a for a, _ in pairs] == sorted((a for a, _ in pairs), reverse=True), f"N={n}: not by a descending"
    assert len(set(pairs)) == len(pairs), f"N={n}: a pair is repeated"
    want = expected_pairs(factors)
    assert len(pairs) == want, f"N={n} = {factors}: {len(pairs)} pairs printed, {want} exist"
    return pairs


def small_factors(n):
    f, p = {}, 2
    while p * p <= n:
        while n % p == 0:
            f[p] = f.get(p, 0) + 1
            n //= p
        p += 1
    if n > 1:
        f[n] = f.get(n, 0) + 1
    return f


def test_examples_and_small_numbers_against_brute_force():
    assert run(25).stdout == "5 0\n4 3\n"
    assert run(50).stdout == "7 1\n5 5\n"
    assert run(21).stdout == "" and run(21).returncode == 0
    assert run(1).stdout == "1 0\n" and run(2).stdout == "1 1\n"
    for n in RNG.sample(range(3, 20000), 60):
        brute = sorted(((a, b) for a in range(math.isqrt(n) + 1) for b in range(a + 1) if a * a + b * b == n),
                       reverse=True)
        assert run(n).stdout == "".join(f"{a} {b}\n" for a, b in brute), n
        assert len(brute) == expected_pairs(small_factors(n)), n


def test_products_of_two_large_primes():
    for _ in range(4):
        p = prime(10 ** 8, 10 ** 9, 1)
        q = prime(10 ** 8, 10 ** 9, 1)
        pairs = check({p: 1, q: 1} if p != q else {p: 2})
        assert len(pairs) >= 1
    # p = 1 and q = 3 (mod 4) with q squared, and an odd power of a 3 (mod 4) prime: nothing
    p, q = prime(10 ** 8, 10 ** 9, 1), prime(10 ** 3, 3 * 10 ** 3, 3)
    check({p: 1, q: 2, 2: RNG.randint(0, 3)})
    p, q = prime(10 ** 7, 10 ** 8, 1), prime(10 ** 7, 10 ** 8, 3)
    assert run(p * q).stdout == "" and check({p: 1, q: 1}) == []


def test_fifteen_digit_factors_and_three_large_primes():
    for _ in range(2):
        p = prime(10 ** 14, 10 ** 15, 1)
        q = prime(5, 30, 1)
        r = prime(5, 30, 1)
        check({p: 1, q: 1} if q == r else {p: 1, q: 1, r: 1})
    p, q, r = prime(10 ** 5, 10 ** 6, 1), prime(10 ** 5, 10 ** 6, 1), prime(10 ** 5, 10 ** 6, 1)
    if len({p, q, r}) == 3:
        check({p: 1, q: 1, r: 1})
    p, q = prime(10 ** 8, 10 ** 9, 1), prime(10 ** 4, 3 * 10 ** 4, 3)
    check({p: 1, q: 2})


def test_large_primes_squares_and_twice_squares():
    p = prime(LIMIT // 2, LIMIT, 1)
    assert len(check({p: 1})) == 1
    q = prime(10 ** 8, 7 * 10 ** 8, 1)
    pairs = check({q: 2})
    assert (q, 0) in pairs and len(pairs) == 2
    pairs = check({2: 1, q: 2})
    assert (q, q) in pairs
    r = prime(10 ** 8, 10 ** 9, 3)
    assert check({r: 2}) == [(r, 0)]
    assert check({2: 59}) == [(2 ** 29, 2 ** 29)]
    assert check({2: 58}) == [(2 ** 29, 0)]


def test_many_representations():
    small = [p for p in range(5, 200) if p % 4 == 1 and is_prime(p)]
    for _ in range(3):
        factors = {}
        n = 1
        for p in RNG.sample(small, len(small)):
            e = RNG.choice([1, 1, 1, 2])
            if n * p ** e <= LIMIT // 8:
                factors[p] = e
                n *= p ** e
        factors[2] = RNG.randint(0, 3)
        assert len(check(factors)) >= 32


def test_bad_arguments():
    for args in ([], ["abc"], ["0"], [str(LIMIT + 1)], ["-25"], ["12.5"], ["25", "50"]):
        r = run(*args)
        assert r.returncode == 2, (args, r.returncode)
        assert r.stdout == "" and r.stderr.strip(), args
