"""Transforms of real signals (numpy.fft.rfft / irfft conventions)."""
from .core import fft, ifft


def rfft(x):
    """The n//2 + 1 non-negative-frequency bins of the DFT of a real signal."""
    n = len(x)
    X = fft([float(v) for v in x])
    return X[: n // 2 + 1]


def irfft(X, n=None):
    """Inverse of rfft: a real signal of length n (default 2 * (len(X) - 1)).

    Bins beyond n//2 are dropped, missing ones are taken as zero; the imaginary part of bin 0, and of
    bin n/2 when n is even, is ignored (those bins of a real signal's spectrum are real)."""
    if n is None:
        n = 2 * (len(X) - 1)
    if n < 1:
        raise ValueError("invalid output length")
    half = n // 2 + 1
    H = [complex(v) for v in X[:half]] + [0j] * max(0, half - len(X))
    H[0] = complex(H[0].real, 0.0)
    H[-1] = complex(H[-1].real, 0.0)
    full = H + [H[k].conjugate() for k in range((n + 1) // 2 - 1, 0, -1)]
    return [v.real for v in ifft(full)]
