"""Complex transforms: iterative radix-2 for powers of two, Bluestein's chirp-z for every other length."""
import cmath
import math


def _is_pow2(n):
    return n > 0 and n & (n - 1) == 0


def _radix2(a, inverse):
    """In-place iterative Cooley-Tukey on a list whose length is a power of two (no scaling)."""
    n = len(a)
    j = 0
    for i in range(1, n):
        bit = n >> 1
        while j & bit:
            j ^= bit
            bit >>= 1
        j |= bit
        if i < j:
            a[i], a[j] = a[j], a[i]
    sign = 1 if inverse else -1
    size = 2
    while size <= n:
        half = size // 2
        tw = [cmath.exp(sign * 2j * math.pi * k / size) for k in range(half)]
        for start in range(0, n, size):
            for k in range(half):
                u = a[start + k]
                v = a[start + k + half] * tw[k]
                a[start + k] = u + v
                a[start + k + half] = u - v
        size *= 2
    return a


def _bluestein(x, inverse):
    """DFT of any length n as a circular convolution of length m >= 2n - 1 (no scaling)."""
    n = len(x)
    m = 1
    while m < 2 * n - 1:
        m *= 2
    sign = 1 if inverse else -1
    # k*k taken modulo n keeps the chirp argument small and exact
    w = [cmath.exp(sign * 1j * math.pi * ((k * k) % n) / n) for k in range(n)]
    a = [x[k] * w[k] for k in range(n)] + [0j] * (m - n)
    b = [0j] * m
    b[0] = w[0].conjugate()
    for k in range(1, n):
        b[k] = b[m - k] = w[k].conjugate()
    fa = _radix2(a, False)
    fb = _radix2(b, False)
    conv = _radix2([p * q for p, q in zip(fa, fb)], True)
    return [conv[k] / m * w[k] for k in range(n)]


def _transform(x, inverse):
    a = [complex(v) for v in x]
    n = len(a)
    if n == 0:
        raise ValueError("empty input")
    if _is_pow2(n):
        return _radix2(a, inverse)
    return _bluestein(a, inverse)


def fft(x):
    """X[k] = sum_j x[j] exp(-2 pi i j k / n)."""
    return _transform(x, False)


def ifft(X):
    """x[j] = (1/n) sum_k X[k] exp(+2 pi i j k / n)."""
    n = len(X)
    return [v / n for v in _transform(X, True)]
