"""Small statistics helpers used by the scoring pipeline."""
import math


def variance(xs):
    """Unbiased sample variance (divides by n - 1). Needs at least two values."""
    xs = list(xs)
    n = len(xs)
    if n < 2:
        raise ValueError("variance needs at least two values")
    s = sum(xs)
    ss = sum(x * x for x in xs)
    return (ss - s * s / n) / (n - 1)


def logsumexp(xs):
    """log(sum(exp(x) for x in xs)); -inf for an empty input."""
    return math.log(sum(math.exp(x) for x in xs))


def softmax(xs):
    """exp(x_i) / sum_j exp(x_j), as a list of floats."""
    e = [math.exp(x) for x in xs]
    total = sum(e)
    return [v / total for v in e]


def log_sigmoid(x):
    """log(1 / (1 + exp(-x)))."""
    return -math.log(1 + math.exp(-x))
