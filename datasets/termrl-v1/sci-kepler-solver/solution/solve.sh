#!/bin/bash
set -euo pipefail
cat > /app/orbit/kepler.py <<'PY'
"""Two-body orbit helpers (angles in radians)."""
import numpy as np


def eccentric_anomaly(M, e):
    """Solve Kepler's equation M = E - e*sin(E) for the eccentric anomaly E.

    M (mean anomaly) and e (eccentricity, 0 <= e < 1) may be floats or numpy arrays
    (they broadcast against each other).
    """
    M, e = np.broadcast_arrays(np.asarray(M, dtype=float), np.asarray(e, dtype=float))
    # reduce to m in [0, pi] using the symmetry E(-m) = -E(m) and periodicity
    k = np.round(M / (2 * np.pi))
    m = M - 2 * np.pi * k
    sign = np.where(m < 0, -1.0, 1.0)
    m = np.abs(m)
    # safe bracket [0, pi]; start from a guess inside it
    lo = np.zeros_like(m)
    hi = np.full_like(m, np.pi)
    E = np.minimum(m + 0.85 * e, np.pi)   # Danby starter
    for _ in range(100):
        f = E - e * np.sin(E) - m
        lo = np.where(f < 0, E, lo)
        hi = np.where(f > 0, E, hi)
        fp = 1 - e * np.cos(E)
        with np.errstate(divide="ignore", invalid="ignore"):
            En = E - f / fp
        bad = ~np.isfinite(En) | (En <= lo) | (En >= hi)
        En = np.where(bad, 0.5 * (lo + hi), En)
        done = np.all(np.abs(En - E) <= 1e-15 * np.maximum(1, np.abs(E)))
        E = En
        if done:
            break
    E = sign * E + 2 * np.pi * k
    return E if E.ndim else E[()]


def true_anomaly(E, e):
    """True anomaly from the eccentric anomaly."""
    E = np.asarray(E, dtype=float)
    e = np.asarray(e, dtype=float)
    return np.arctan2(np.sqrt(1 - e * e) * np.sin(E), np.cos(E) - e)


def position(a, e, M):
    """Position (x, y) in the orbital plane, focus at the origin, periapsis on +x."""
    E = eccentric_anomaly(M, e)
    e = np.asarray(e, dtype=float)
    x = a * (np.cos(E) - e)
    y = a * np.sqrt(1 - e * e) * np.sin(E)
    return x, y
PY
python3 -c "
import sys; sys.path.insert(0, '/app')
import numpy as np
from orbit.kepler import eccentric_anomaly
M = np.linspace(-10, 10, 11); E = eccentric_anomaly(M, 0.999)
print(np.abs(E - 0.999*np.sin(E) - M).max())"
