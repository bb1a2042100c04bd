#!/bin/bash
# Mistake: uses integer wavenumbers, i.e. silently assumes the period is 2*pi.
set -euo pipefail
cat > /app/spectral/deriv.py <<'PY'
import numpy as np


def derivative(f, length, order=1):
    f = np.asarray(f, dtype=float)
    n = f.size
    if order == 0:
        return f.copy()
    k = np.fft.fftfreq(n) * n
    return np.real(np.fft.ifft((1j * k) ** order * np.fft.fft(f)))
PY
