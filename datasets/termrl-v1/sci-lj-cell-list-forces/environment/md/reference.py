"""Reference Lennard-Jones energy, forces and virial: the definition, written for clarity, not speed.

Units: epsilon = sigma = 1. Cubic periodic box of side L; minimum-image convention; pairs interact when
their distance r < rc (rc <= L/2), with the potential shifted so that it is 0 at the cutoff:
    V(r) = 4 (r^-12 - r^-6) - 4 (rc^-12 - rc^-6)
compute(pos, L, rc) returns (energy, forces, virial):
    energy = sum over pairs i < j of V(r_ij)
    forces[i] = sum over j of f_ij, with f_ij = (48 r^-14 - 24 r^-8) d_ij and d_ij = r_i - r_j (minimum image)
    virial = sum over pairs i < j of f_ij . d_ij
"""
import numpy as np


def compute(pos, L, rc):
    pos = np.asarray(pos, dtype=float)
    n = len(pos)
    forces = np.zeros((n, 3))
    energy = 0.0
    virial = 0.0
    shift = 4.0 * (rc ** -12 - rc ** -6)
    for i in range(n):
        for j in range(i + 1, n):
            d = [pos[i][k] - pos[j][k] for k in range(3)]
            d = [x - L * round(x / L) for x in d]
            r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
            if r2 >= rc * rc:
                continue
            inv2 = 1.0 / r2
            inv6 = inv2 * inv2 * inv2
            energy += 4.0 * (inv6 * inv6 - inv6) - shift
            fs = (48.0 * inv6 * inv6 - 24.0 * inv6) * inv2
            for k in range(3):
                forces[i][k] += fs * d[k]
                forces[j][k] -= fs * d[k]
            virial += fs * r2
    return energy, forces, virial
