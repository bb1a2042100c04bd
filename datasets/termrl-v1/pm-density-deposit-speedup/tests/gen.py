"""Particle files for the tests: clumps, a uniform background, positions outside the box (they wrap),
points exactly on cell edges and a wide range of masses."""
import numpy as np


def particles(rng, count, box=1.0, cells=256, outside=True, edges=True):
    k = min(count, max(1, count // 5))
    nclumps = int(rng.integers(3, 12))
    centres = rng.random((nclumps, 2)) * box
    sizes = rng.random(nclumps) * 0.08 * box + 0.002 * box
    which = rng.integers(0, nclumps, count - k)
    clump = centres[which] + rng.standard_normal((count - k, 2)) * sizes[which, None]
    uniform = rng.random((k, 2)) * box
    pos = np.concatenate([clump, uniform])
    rng.shuffle(pos)
    if outside:
        sel = rng.random(count) < 0.03
        pos[sel] += rng.integers(-3, 4, (int(sel.sum()), 2)) * box
    if edges and count:
        h = box / cells
        sel = rng.random(count) < 0.02
        pos[sel, 0] = rng.integers(-cells, 2 * cells, int(sel.sum())) * h
        sel = rng.random(count) < 0.02
        pos[sel, 1] = rng.integers(-cells, 2 * cells, int(sel.sum())) * h
    mass = np.exp(rng.standard_normal(count) * 1.5) * (10.0 ** float(rng.integers(-3, 4)))
    return np.column_stack([pos, mass]).astype("<f8")


def write(path, arr):
    with open(path, "wb") as f:
        f.write(arr.astype("<f8").tobytes())
