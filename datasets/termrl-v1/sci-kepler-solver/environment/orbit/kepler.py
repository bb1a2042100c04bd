"""Two-body orbit helpers (angles in radians)."""
import numpy as np


def eccentric_anomaly(M, e):
    """Solve Kepler's equation M = E - e*sin(E) for the eccentric anomaly E.

    M (mean anomaly) and e (eccentricity, 0 <= e < 1) may be floats or numpy arrays
    (they broadcast against each other).
    """
    M = np.asarray(M, dtype=float)
    e = np.asarray(e, dtype=float)
    E = M.copy()
    for _ in range(10):
        E = E - (E - e * np.sin(E) - M) / (1 - e * np.cos(E))
    return E


def true_anomaly(E, e):
    """True anomaly from the eccentric anomaly."""
    return 2 * np.arctan(np.sqrt((1 + e) / (1 - e)) * np.tan(E / 2))


def position(a, e, M):
    """Position (x, y) in the orbital plane, focus at the origin, periapsis on +x."""
    E = eccentric_anomaly(M, e)
    nu = true_anomaly(E, e)
    r = a * (1 - e * np.cos(E))
    return r * np.cos(nu), r * np.sin(nu)
