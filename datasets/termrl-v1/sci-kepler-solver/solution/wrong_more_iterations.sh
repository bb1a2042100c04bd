#!/bin/bash
# Mistake: reduces M into [-pi, pi] and iterates Newton longer, but still starts from E0 = M.
set -euo pipefail
cat > /app/orbit/kepler.py <<'PY'
import numpy as np


def eccentric_anomaly(M, e):
    M = np.asarray(M, dtype=float)
    e = np.asarray(e, dtype=float)
    k = np.round(M / (2 * np.pi))
    m = M - 2 * np.pi * k
    E = m.copy()
    for _ in range(60):
        E = E - (E - e * np.sin(E) - m) / (1 - e * np.cos(E))
    return E + 2 * np.pi * k


def true_anomaly(E, e):
    return np.arctan2(np.sqrt(1 - e * e) * np.sin(E), np.cos(E) - e)


def position(a, e, M):
    E = eccentric_anomaly(M, e)
    return a * (np.cos(E) - e), a * np.sqrt(1 - e * e) * np.sin(E)
PY
