import random
import re
import subprocess
from fractions import Fraction

import pytest


def calc(expr):
    return subprocess.run(["python3", "/app/calc.py", expr], capture_output=True, text=True, timeout=20)


def ok(expr):
    r = calc(expr)
    assert r.returncode == 0, (expr, r.stderr)
    return r.stdout


def fmt(v):
    if v.denominator == 1:
        return str(v.numerator)
    q = int(abs(v) * 10**6)
    if abs(v) * 10**6 - q >= Fraction(1, 2):
        q += 1
    sign = "-" if v < 0 and q else ""
    ip, fp = divmod(q, 10**6)
    return sign + (str(ip) if fp == 0 else f"{ip}.{fp:06d}".rstrip("0"))


def test_basic_precedence():
    assert ok("1 + 2 * 3") == "7\n"
    assert ok("(1 + 2) * 3") == "9\n"
    assert ok("10 - 4 - 3") == "3\n"
    assert ok("2 * 3 / 4") == "1.5\n"
    assert ok("  7  ") == "7\n"


def test_power_and_unary():
    assert ok("2^3^2") == "512\n"
    assert ok("-2^2") == "-4\n"
    assert ok("(-2)^2") == "4\n"
    assert ok("2^-1") == "0.5\n"
    assert ok("2*-3") == "-6\n"
    assert ok("--3") == "3\n"
    assert ok("-3*-3") == "9\n"


def test_exact_arithmetic_and_format():
    assert ok("1/3") == "0.333333\n"
    assert ok("-2/3") == "-0.666667\n"
    assert ok("0.1 + 0.2") == "0.3\n"
    assert ok("1/3*3") == "1\n"
    assert ok("1000001/1000000") == "1.000001\n"
    assert ok("1/10000000") == "0\n"
    assert ok("-1/10000000") == "0\n"
    assert ok("0.0000005") == "0.000001\n"
    assert ok(".5 + 3.") == "3.5\n"


def test_modulo_floored():
    assert ok("-7 % 3") == "2\n"
    assert ok("7 % -3") == "-2\n"
    assert ok("7.5 % 2") == "1.5\n"


def test_functions():
    assert ok("max(1, 5, 3) - min(4, -2)") == "7\n"
    assert ok("abs(-2.5) * 2") == "5\n"
    assert ok("min(7)") == "7\n"
    assert ok("max(1/3, 0.3)") == "0.333333\n"


def test_errors():
    for e in ["1/0", "5 % 0", "2^0.5", "0^-1", "(1+2", "1+", "", "foo(1)", "abs(1,2)", "max()", "1 2", "3 $ 4", ")"]:
        r = calc(e)
        assert r.returncode == 1, e
        assert r.stdout == "", e
        assert r.stderr.startswith("error:"), e


def gen(rng, depth):
    if depth == 0 or rng.random() < 0.25:
        return str(rng.choice([rng.randint(0, 20), rng.randint(0, 99) / 4]))
    k = rng.random()
    if k < 0.6:
        return gen(rng, depth - 1) + rng.choice([" + ", " - ", " * ", " / "]) + gen(rng, depth - 1)
    if k < 0.75:
        return "(" + gen(rng, depth - 1) + ")"
    if k < 0.85:
        return "-" + gen(rng, depth - 1)
    return "(" + gen(rng, depth - 1) + ")^" + rng.choice(["2", "3", "-1", "(1+1)", "-2"])


def reference(expr):
    py = re.sub(r"(\d+\.?\d*|\.\d+)", r"Fraction('\1')", expr).replace("^", "**")
    return eval(py, {"Fraction": Fraction})


def test_random_expressions():
    rng = random.Random(1234)
    checked = 0
    while checked < 60:
        e = gen(rng, 4)
        try:
            want = reference(e)
        except ZeroDivisionError:
            continue
        if abs(want) > 10**12 or want.denominator > 10**12:
            continue
        assert ok(e) == fmt(want) + "\n", e
        checked += 1
