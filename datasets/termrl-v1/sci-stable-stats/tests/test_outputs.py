import math
import random
import subprocess
import sys
from fractions import Fraction

import pytest

sys.path.insert(0, "/app")
from numstab import log_sigmoid, logsumexp, softmax, variance  # noqa: E402


def exact_variance(xs):
    fr = [Fraction(x) for x in xs]
    n = len(fr)
    mean = sum(fr) / n
    return float(sum((x - mean) ** 2 for x in fr) / (n - 1))


def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


def test_variance_with_large_offset():
    assert rel(variance([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16]), 30.0) < 1e-9
    rng = random.Random(3)
    for offset in (1e6, 1e8, 1e9, -3e9):
        xs = [offset + rng.gauss(0, 1) for _ in range(2000)]
        assert rel(variance(xs), exact_variance(xs)) < 1e-9
    # generators work too
    assert rel(variance(x + 1e12 for x in (1.0, 2.0, 3.0, 4.0)), exact_variance([1e12 + i for i in (1, 2, 3, 4)])) < 1e-6


def test_variance_errors_and_plain_values():
    with pytest.raises(ValueError):
        variance([1.0])
    with pytest.raises(ValueError):
        variance([])
    assert rel(variance([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]), 32 / 7) < 1e-12


def test_logsumexp_extremes():
    assert rel(logsumexp([1000.0, 1000.0]), 1000.0 + math.log(2)) < 1e-14
    assert rel(logsumexp([-1000.0, -1000.0, -1000.0]), -1000.0 + math.log(3)) < 1e-14
    assert rel(logsumexp([-1200.0, -1201.5, -1199.25]),
               -1199.25 + math.log(1 + math.exp(-0.75) + math.exp(-2.25))) < 1e-14
    assert logsumexp([]) == -math.inf
    assert logsumexp([-math.inf, -math.inf]) == -math.inf
    assert rel(logsumexp([-math.inf, 5.0]), 5.0) < 1e-15
    assert rel(logsumexp(iter([710.0, 0.0])), 710.0) < 1e-15


def test_softmax_extremes():
    p = softmax([800.0, 799.0, 0.0])
    assert all(math.isfinite(v) for v in p)
    assert abs(sum(p) - 1) < 1e-12
    assert rel(p[0], 1 / (1 + math.exp(-1))) < 1e-12
    assert p[2] < 1e-300
    q = softmax([-5000.0, -5000.0])
    assert q == [0.5, 0.5]


def test_log_sigmoid_accuracy():
    for x, want in [(-1000.0, -1000.0), (-800.0, -800.0), (0.0, -math.log(2))]:
        assert rel(log_sigmoid(x), want) < 1e-12, x
    # for large x, log_sigmoid(x) = -log1p(exp(-x)) ~ -exp(-x)
    for x in (20.0, 40.0, 100.0, 700.0):
        want = -math.exp(-x) * (1 - math.exp(-x) / 2)
        assert rel(log_sigmoid(x), want) < 1e-12, x
    assert log_sigmoid(1000.0) <= 0.0 and log_sigmoid(1000.0) > -1e-300


def test_demo_runs():
    proc = subprocess.run([sys.executable, "/app/demo.py"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "nan" not in proc.stdout.lower()
