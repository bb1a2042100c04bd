"""Mass-action reaction kinetics simulator.

Usage: python3 kinetics.py CONFIG.json OUT.json
"""
import json
import sys

import numpy as np


def build_rhs(config):
    species = config["species"]
    index = {s: i for i, s in enumerate(species)}
    reactions = []
    for r in config["reactions"]:
        reactants = [(index[s], n) for s, n in r["reactants"].items()]
        change = np.zeros(len(species))
        for s, n in r["reactants"].items():
            change[index[s]] -= n
        for s, n in r["products"].items():
            change[index[s]] += n
        reactions.append((r["k"], reactants, change))

    def rhs(t, y):
        dy = np.zeros_like(y)
        for k, reactants, change in reactions:
            rate = k
            for i, n in reactants:
                rate *= y[i] ** n
            dy += rate * change
        return dy

    return rhs


def simulate(config):
    species = config["species"]
    y = np.array([config["initial"].get(s, 0.0) for s in species], dtype=float)
    rhs = build_rhs(config)
    t = 0.0
    dt = 1e-4
    out = {s: [] for s in species}
    for t_out in config["times"]:
        while t < t_out:
            h = min(dt, t_out - t)
            y = y + h * rhs(t, y)          # explicit Euler
            t += h
        for i, s in enumerate(species):
            out[s].append(float(y[i]))
    return {"times": list(config["times"]), "concentrations": out}


def main():
    with open(sys.argv[1]) as fh:
        config = json.load(fh)
    result = simulate(config)
    with open(sys.argv[2], "w") as fh:
        json.dump(result, fh, indent=1)


if __name__ == "__main__":
    main()
