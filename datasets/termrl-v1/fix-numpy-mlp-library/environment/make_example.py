"""An example data set: two interleaved half-moons with noise features (seeded)."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)


def moons(n):
    t = rng.uniform(0, np.pi, n)
    y = rng.integers(0, 2, n)
    x0 = np.where(y == 0, np.cos(t), 1 - np.cos(t))
    x1 = np.where(y == 0, np.sin(t), 0.5 - np.sin(t))
    X = np.c_[x0 * 40 + 100, x1 * 0.01, rng.normal(0, 1, n)] + rng.normal(0, [2, 0.001, 0], (n, 3))
    return X, y


for name, n in (("train", 600), ("test", 300)):
    X, y = moons(n)
    with open(os.path.join(out, f"{name}.csv"), "w") as f:
        f.write("a,b,noise,label\n")
        for row, label in zip(X, y):
            f.write(",".join(f"{v:.6f}" for v in row) + f",{label}\n")
