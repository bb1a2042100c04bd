import os
import random
import shutil
import subprocess
import tempfile

import sys

import pytest

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

SRC = os.environ.get("BIGCALC_SRC", "/app/bigcalc.c")


@pytest.fixture(scope="module")
def calc():
    d = tempfile.mkdtemp()
    exe = os.path.join(d, "bigcalc")
    r = subprocess.run(["gcc", "-O2", "-Wall", "-o", exe, SRC], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    yield exe
    shutil.rmtree(d, ignore_errors=True)


def run(exe, lines):
    data = "".join(l + "\n" for l in lines)
    r = subprocess.run([exe], input=data, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.split("\n")[:-1] if r.stdout.endswith("\n") else r.stdout.split("\n")


def fdiv(a, b):
    return a // b


def expect(a, op, b):
    if op == "+":
        return str(a + b)
    if op == "-":
        return str(a - b)
    if op == "*":
        return str(a * b)
    if op in "/%":
        if b == 0:
            return "error: division by zero"
        return str(a // b if op == "/" else a % b)
    if op == "^":
        if b < 0 or b > 100000:
            return "error: exponent"
        return str(a ** b)
    raise AssertionError(op)


def check(exe, cases):
    """cases: list of (text_a, op, text_b)"""
    lines = [f"{a} {op} {b}" for a, op, b in cases]
    out = run(exe, lines)
    assert len(out) == len(cases), (len(out), len(cases))
    for (a, op, b), got in zip(cases, out):
        want = expect(int(a), op, int(b))
        assert got == want, f"{a} {op} {b}: got {got[:80]!r}..., want {want[:80]!r}..."


def rnd_num(rng, digits, neg_ok=True):
    s = str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(digits - 1))
    if neg_ok and rng.random() < 0.5:
        s = "-" + s
    return s


def boundary_num(rng):
    k = rng.randint(1, 6)
    v = 10 ** (9 * k) + rng.randint(-3, 3)
    if rng.random() < 0.5:
        v = -v
    return str(v)


def test_add_sub_carries_and_borrows(calc):
    rng = random.Random(1401)
    cases = []
    for _ in range(300):
        a = boundary_num(rng) if rng.random() < 0.5 else rnd_num(rng, rng.randint(1, 60))
        b = boundary_num(rng) if rng.random() < 0.5 else rnd_num(rng, rng.randint(1, 60))
        cases.append((a, rng.choice("+-"), b))
    for k in range(1, 6):
        n = 10 ** (9 * k)
        cases += [(str(n - 1), "+", "1"), (str(n), "-", "1"), ("1", "-", str(n)),
                  (str(-n + 1), "-", "1"), (str(n - 7), "+", "7")]
    check(calc, cases)


def test_leading_zeros_and_zero_sign(calc):
    rng = random.Random(1402)
    cases = []
    for _ in range(200):
        a = rnd_num(rng, rng.randint(1, 30), neg_ok=False)
        b = rnd_num(rng, rng.randint(1, 30), neg_ok=False)
        za = "0" * rng.randint(1, 25) + a
        zb = "0" * rng.randint(1, 25) + b
        sa = "-" if rng.random() < 0.5 else ""
        sb = "-" if rng.random() < 0.5 else ""
        cases.append((sa + za, rng.choice("+-*/%"), sb + zb))
    for z in ["0", "-0", "-000000000000000000000", "0000000000"]:
        cases += [(z, "+", "0"), (z, "+", z), (z, "-", z), (z, "*", "-12345678901234567890"), ("-5", "*", z),
                  ("-" + "7" * 20, "-", "-" + "7" * 20), ("-987654321987", "+", "987654321987"),
                  (z, "/", "-3"), (z, "%", "-3"), ("-18", "%", "3"), ("-" + "9" * 30, "%", "9")]
    check(calc, cases)


def test_multiply_long_operands(calc):
    rng = random.Random(1403)
    cases = []
    for _ in range(60):
        da, db = rng.randint(150, 700), rng.randint(150, 700)
        if rng.random() < 0.4:
            a = "9" * da
            b = "-" + "9" * db if rng.random() < 0.5 else "9" * db
        else:
            a, b = rnd_num(rng, da), rnd_num(rng, db)
        cases.append((a, "*", b))
    for _ in range(60):
        cases.append((rnd_num(rng, rng.randint(1, 40)), "*", rnd_num(rng, rng.randint(1, 40))))
    check(calc, cases)


def test_floor_division_signs(calc):
    rng = random.Random(1404)
    cases = []
    for _ in range(400):
        a = rnd_num(rng, rng.randint(1, 40))
        b = rnd_num(rng, rng.randint(1, 25))
        cases.append((a, rng.choice("/%"), b))
    for a in (7, -7, 6, -6, 1, -1):
        for b in (2, -2, 3, -3, 7, -7, 10 ** 12, -(10 ** 12)):
            cases += [(str(a), "/", str(b)), (str(a), "%", str(b))]
    check(calc, cases)


def test_division_long_operands(calc):
    rng = random.Random(1405)
    cases = []
    for _ in range(80):
        b = rnd_num(rng, rng.randint(20, 150))
        q = rnd_num(rng, rng.randint(20, 150))
        r = rng.randint(0, abs(int(b)) - 1)
        a = str(int(q) * int(b) + r)
        cases.append((a, rng.choice("/%"), b))
    for k in range(2, 8):
        n = 10 ** (9 * k)
        cases += [(str(n * n - 1), "/", str(n - 1)), (str(n * n - 1), "%", str(n + 1)),
                  (str(-(n * n) + 1), "/", str(n)), (str(n * (n - 1)), "/", "1"),
                  (str(n), "/", str(n - 1)), (str(n - 1), "%", str(n))]
    check(calc, cases)


def test_power(calc):
    rng = random.Random(1406)
    cases = []
    for _ in range(60):
        a = rnd_num(rng, rng.randint(1, 25))
        cases.append((a, "^", str(rng.randint(0, 60))))
    cases += [("-2", "^", "0"), ("0", "^", "0"), ("-3", "^", "41"), ("-3", "^", "40"),
              ("2", "^", "100000"), ("7", "^", "100001"), ("7", "^", "1000000001"),
              ("7", "^", "1000000000000000000001"), ("7", "^", "-1"), ("-1", "^", "99999"),
              ("10", "^", "00000000000000000000000003"), ("5", "^", "-0")]
    check(calc, cases)


def test_errors_and_layout(calc):
    lines = ["1 + 2", "", "   ", "1 +", "1 ++ 2", "a + 1", "1 + 2 + 3", "- + 1",
             "12 & 3", "5 / 0", "5 % -0", "-12\t*\t  3", "--4 + 1", "4 - -4", "+4 + 1",
             "  100000000000000000000   /   7  ", "1 x 2"]
    out = run(calc, lines)
    assert out == ["3", "error: syntax", "error: syntax", "error: syntax", "error: syntax",
                   "error: syntax", "error: syntax", "error: division by zero",
                   "error: division by zero", "-36", "error: syntax", "8", "error: syntax",
                   str(10 ** 20 // 7), "error: syntax"]


def test_mixed_session(calc):
    rng = random.Random(1407)
    cases = []
    for _ in range(1500):
        op = rng.choice("+-*/%^")
        if op == "^":
            a, b = rnd_num(rng, rng.randint(1, 12)), str(rng.randint(0, 30))
        else:
            pick = lambda: boundary_num(rng) if rng.random() < 0.3 else (
                "0" if rng.random() < 0.05 else rnd_num(rng, rng.randint(1, 90)))
            a, b = pick(), pick()
        cases.append((a, op, b))
    check(calc, cases)
