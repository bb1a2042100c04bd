"""odekit: a small explicit ODE solver (Dormand-Prince 5(4))."""
from .solver import Result, solve

__all__ = ["Result", "solve"]
