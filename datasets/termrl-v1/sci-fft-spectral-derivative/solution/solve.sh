#!/bin/bash
set -euo pipefail
cat > /app/spectral/deriv.py <<'PY'
"""Spectral differentiation of periodic samples."""
import numpy as np


def derivative(f, length, order=1):
    """Return the `order`-th derivative of the periodic function sampled in `f`.

    f holds N equally spaced samples f(x_j), x_j = j * length / N, j = 0..N-1, of a real function with
    period `length`. The result is a real numpy array of N samples of the derivative.
    """
    f = np.asarray(f, dtype=float)
    n = f.size
    if order == 0 or n == 0:
        return f.copy()
    F = np.fft.rfft(f)
    k = 2 * np.pi / length * np.arange(F.size)
    mult = (1j * k) ** order
    if n % 2 == 0:
        # Nyquist cosine: derivative of cos(kx) is -k sin(kx) = 0 on the grid for odd orders,
        # and (-k^2)^(order/2) cos(kx) for even orders
        kn = k[-1]
        mult[-1] = 0.0 if order % 2 else (-(kn ** 2)) ** (order // 2)
    return np.fft.irfft(F * mult, n=n)
PY
