"""Frequency grids and shifts (numpy.fft conventions)."""


def fftfreq(n, d=1.0):
    """Sample frequencies of an n-point DFT with sample spacing d: [0, 1, ..., -2, -1] / (d n)."""
    if n < 1:
        raise ValueError("n must be positive")
    npos = n // 2 + 1
    ks = list(range(npos)) + list(range(-(n - npos), 0))
    return [k / (d * n) for k in ks]


def fftshift(x):
    """Move the zero-frequency term to the centre."""
    x = list(x)
    s = len(x) // 2
    return x[len(x) - s:] + x[:len(x) - s]


def ifftshift(x):
    """Inverse of fftshift."""
    x = list(x)
    s = (len(x) + 1) // 2
    return x[s:] + x[:s]
