#!/bin/bash
set -euo pipefail
cat > /app/kinetics.py <<'PY'
"""Mass-action reaction kinetics simulator.

Usage: python3 kinetics.py CONFIG.json OUT.json
"""
import json
import sys

import numpy as np
from scipy.integrate import solve_ivp


def build_system(config):
    species = config["species"]
    index = {s: i for i, s in enumerate(species)}
    n = len(species)
    ks, orders, changes = [], [], []
    for r in config["reactions"]:
        order = np.zeros(n)
        change = np.zeros(n)
        for s, m in r["reactants"].items():
            order[index[s]] += m
            change[index[s]] -= m
        for s, m in r["products"].items():
            change[index[s]] += m
        ks.append(float(r["k"]))
        orders.append(order)
        changes.append(change)
    ks = np.array(ks)
    orders = np.array(orders)          # (R, n)
    changes = np.array(changes)        # (R, n)

    def rates(y):
        y = np.maximum(y, 0.0) if False else y
        return ks * np.prod(np.power(y[None, :], orders), axis=1)

    def rhs(t, y):
        return changes.T @ rates(y)

    def jac(t, y):
        # d rate_r / d y_j = k_r * order_rj * y_j^(order_rj - 1) * prod_{i != j} y_i^order_ri
        R = len(ks)
        d = np.zeros((R, n))
        for j in range(n):
            oj = orders[:, j]
            mask = oj > 0
            if not mask.any():
                continue
            others = orders.copy()
            others[:, j] = 0
            base = ks * np.prod(np.power(y[None, :], others), axis=1)
            d[mask, j] = base[mask] * oj[mask] * np.power(y[j], oj[mask] - 1)
        return changes.T @ d

    return rhs, jac


def simulate(config):
    species = config["species"]
    y0 = np.array([float(config["initial"].get(s, 0.0)) for s in species])
    rhs, jac = build_system(config)
    times = [float(t) for t in config["times"]]
    sol = solve_ivp(rhs, (0.0, times[-1]), y0, method="Radau", jac=jac, t_eval=times,
                    rtol=1e-10, atol=1e-16)
    if not sol.success:
        raise RuntimeError(sol.message)
    out = {s: [float(v) for v in sol.y[i]] for i, s in enumerate(species)}
    return {"times": list(config["times"]), "concentrations": out}


def main():
    with open(sys.argv[1]) as fh:
        config = json.load(fh)
    result = simulate(config)
    with open(sys.argv[2], "w") as fh:
        json.dump(result, fh, indent=1)


if __name__ == "__main__":
    main()
PY
cd /app && time python3 kinetics.py robertson.json /tmp/out.json && cat /tmp/out.json | head -30
