"""Linear convolution through the FFT (numpy.convolve conventions)."""
from .core import fft, ifft


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two real sequences.

    mode 'full': length M + N - 1; 'same': length max(M, N), the middle of 'full'; 'valid': length
    max(M, N) - min(M, N) + 1, only where the sequences overlap completely."""
    a, v = [float(x) for x in a], [float(x) for x in v]
    if not a or not v:
        raise ValueError("empty input")
    M, N = len(a), len(v)
    L = M + N - 1
    size = 1
    while size < L:
        size *= 2
    fa = fft(a + [0.0] * (size - M))
    fv = fft(v + [0.0] * (size - N))
    full = [c.real for c in ifft([p * q for p, q in zip(fa, fv)])][:L]
    if mode == "full":
        return full
    if mode == "same":
        start = N // 2
        return full[start:start + M]
    if mode == "valid":
        return full[N - 1:M]
    raise ValueError(f"unknown mode {mode!r}")
