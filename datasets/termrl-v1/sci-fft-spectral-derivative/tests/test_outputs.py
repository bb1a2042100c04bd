import os

# The speed limit measures CPU time (time.process_time() of this process, where the code under test runs),
# which other work on the machine does not inflate, unlike wall-clock time. numpy is held to one thread
# (set before numpy is imported) so that its thread pool cannot add CPU time of its own.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import math
import sys
import time

import numpy as np

sys.path.insert(0, "/app")
from spectral.deriv import derivative  # noqa: E402
import resource


def cpu_seconds():
    """CPU time of this process and its finished children. Speed limits use it instead of wall-clock
    time, which grows when other work loads the machine."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def trig_poly(rng, n, length, deg):
    a = rng.normal(size=deg + 1)
    b = rng.normal(size=deg + 1)
    x = np.arange(n) * length / n

    def value(order):
        out = np.zeros(n)
        for m in range(deg + 1):
            w = 2 * np.pi * m / length
            # d^order/dx^order of a cos(wx) + b sin(wx)
            c = np.cos(w * x + order * np.pi / 2)
            s = np.sin(w * x + order * np.pi / 2)
            out += (w ** order if order else 1.0) * (a[m] * c + b[m] * s)
        return out

    return value


def check(n, length, deg, order, seed):
    rng = np.random.default_rng(seed)
    value = trig_poly(rng, n, length, deg)
    got = derivative(value(0), length, order)
    want = value(order)
    assert isinstance(got, np.ndarray) and got.shape == (n,) and got.dtype == np.float64
    assert np.max(np.abs(got - want)) <= 1e-9 * max(1.0, np.max(np.abs(want))), (n, length, deg, order)


def test_first_derivative_even_and_odd_n():
    for n in (16, 17, 64, 101):
        check(n, 2 * np.pi, n // 2 - 1 if n % 2 == 0 else (n - 1) // 2, 1, n)


def test_higher_orders_other_period():
    for order in (2, 3, 4, 5, 6):
        check(32, 3.7, 6, order, order)
        check(33, 0.5, 6, order, order + 10)


def test_order_zero_and_tiny_sizes():
    f = np.array([1.0, 2.0, 3.0])
    assert np.allclose(derivative(f, 1.0, 0), f)
    assert np.allclose(derivative([5.0], 2.0, 1), [0.0])
    assert np.allclose(derivative([1.0, -1.0], 2.0, 1), [0.0, 0.0])


def test_nyquist_mode_handling():
    n, length = 8, 2.0
    x = np.arange(n) * length / n
    k = n * np.pi / length
    f = np.cos(k * x)                       # the Nyquist cosine: (+1, -1, +1, ...)
    assert np.allclose(derivative(f, length, 1), 0.0, atol=1e-12)
    assert np.allclose(derivative(f, length, 3), 0.0, atol=1e-9)
    assert np.allclose(derivative(f, length, 2), -k ** 2 * f, rtol=1e-12, atol=1e-9)
    assert np.allclose(derivative(f, length, 4), k ** 4 * f, rtol=1e-12, atol=1e-6)
    g = f + np.sin(2 * np.pi * x / length)
    assert np.allclose(derivative(g, length, 1), 2 * np.pi / length * np.cos(2 * np.pi * x / length), atol=1e-10)


def test_large_fast():
    n = 2 ** 20
    x = np.arange(n) * 10.0 / n
    f = np.sin(2 * np.pi * 3 * x / 10.0) + np.cos(2 * np.pi * 50 * x / 10.0)
    t = cpu_seconds()
    d = derivative(f, 10.0, 1)
    assert cpu_seconds() - t < 10
    want = 2 * np.pi * 3 / 10 * np.cos(2 * np.pi * 3 * x / 10) - 2 * np.pi * 50 / 10 * np.sin(2 * np.pi * 50 * x / 10)
    assert np.max(np.abs(d - want)) < 1e-8 * np.max(np.abs(want))
