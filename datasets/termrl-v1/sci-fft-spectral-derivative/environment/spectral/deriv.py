"""Spectral differentiation of periodic samples."""
import numpy as np


def derivative(f, length, order=1):
    """Return the `order`-th derivative of the periodic function sampled in `f`.

    f holds N equally spaced samples f(x_j), x_j = j * length / N, j = 0..N-1, of a real function with
    period `length`. The result is a real numpy array of N samples of the derivative.
    """
    raise NotImplementedError
