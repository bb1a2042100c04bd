#!/bin/bash
set -euo pipefail
cat > /app/fitlib/poly.py <<'PY'
"""Least-squares polynomial fitting used by the calibration scripts."""
import numpy as np


class PolyFit:
    """Polynomial stored in the Chebyshev basis of the scaled variable t = (x - centre) / half_width."""

    def __init__(self, cheb, centre, half_width):
        self.cheb = cheb
        self.centre = centre
        self.half_width = half_width

    def predict(self, xs):
        t = (np.asarray(xs, dtype=float) - self.centre) / self.half_width
        return np.polynomial.chebyshev.chebval(t, self.cheb)


def fit(x, y, deg, w=None):
    """Weighted least-squares fit of a polynomial of degree `deg`.

    Minimises sum_i w_i * (p(x_i) - y_i)^2 (w defaults to all ones) and returns a PolyFit.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    w = np.ones_like(x) if w is None else np.asarray(w, dtype=float)
    if len(np.unique(x)) < deg + 1:
        raise ValueError("need at least deg + 1 distinct x values")
    lo, hi = x.min(), x.max()
    centre = lo / 2 + hi / 2
    half = (hi - lo) / 2
    t = (x - centre) / half
    V = np.polynomial.chebyshev.chebvander(t, deg)
    sw = np.sqrt(w)
    A = V * sw[:, None]
    col = np.linalg.norm(A, axis=0)
    Q, R = np.linalg.qr(A / col)
    c = np.linalg.solve(R, Q.T @ (sw * y)) / col
    # one step of iterative refinement
    r = sw * y - A @ c
    c += np.linalg.solve(R, Q.T @ r) / col
    return PolyFit(c, centre, half)
PY
