"""Least-squares polynomial fitting used by the calibration scripts."""
import numpy as np


class PolyFit:
    def __init__(self, coef):
        self.coef = coef          # monomial coefficients, highest power first

    def predict(self, xs):
        return np.polyval(self.coef, np.asarray(xs, dtype=float))


def fit(x, y, deg, w=None):
    """Weighted least-squares fit of a polynomial of degree `deg`.

    Minimises sum_i w_i * (p(x_i) - y_i)^2 (w defaults to all ones) and returns a PolyFit.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    w = np.ones_like(x) if w is None else np.asarray(w, dtype=float)
    V = np.vander(x, deg + 1)
    A = V.T @ (w[:, None] * V)           # normal equations
    b = V.T @ (w * y)
    return PolyFit(np.linalg.solve(A, b))
