#!/bin/bash
set -euo pipefail
cat > /app/numstab/stats.py <<'PY'
"""Small statistics helpers used by the scoring pipeline."""
import math


def variance(xs):
    """Unbiased sample variance (divides by n - 1). Needs at least two values."""
    xs = [float(x) for x in xs]
    n = len(xs)
    if n < 2:
        raise ValueError("variance needs at least two values")
    mean = math.fsum(xs) / n
    d = [x - mean for x in xs]
    # two-pass with the compensation term for the rounding error of the mean
    return (math.fsum(v * v for v in d) - math.fsum(d) ** 2 / n) / (n - 1)


def logsumexp(xs):
    """log(sum(exp(x) for x in xs)); -inf for an empty input."""
    xs = list(xs)
    if not xs:
        return -math.inf
    m = max(xs)
    if m == -math.inf:
        return -math.inf
    return m + math.log(math.fsum(math.exp(x - m) for x in xs))


def softmax(xs):
    """exp(x_i) / sum_j exp(x_j), as a list of floats."""
    xs = list(xs)
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    total = math.fsum(e)
    return [v / total for v in e]


def log_sigmoid(x):
    """log(1 / (1 + exp(-x)))."""
    if x >= 0:
        return -math.log1p(math.exp(-x))
    return x - math.log1p(math.exp(x))
PY
python3 /app/demo.py
