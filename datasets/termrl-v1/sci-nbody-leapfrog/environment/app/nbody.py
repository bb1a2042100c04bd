"""Gravitational N-body integrator.

Usage: python3 nbody.py CONFIG.json STEPS DT OUT.json
"""
import json
import math
import sys


def accelerations(pos, masses, G, eps):
    n = len(pos)
    acc = [[0.0, 0.0, 0.0] for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            d = [pos[j][k] - pos[i][k] for k in range(3)]
            r2 = sum(x * x for x in d) + eps * eps
            f = G * masses[j] / (r2 * math.sqrt(r2))
            for k in range(3):
                acc[i][k] += f * d[k]
    return acc


def main():
    cfg = json.load(open(sys.argv[1]))
    steps, dt = int(sys.argv[2]), float(sys.argv[3])
    pos, vel, m = cfg["positions"], cfg["velocities"], cfg["masses"]
    G, eps = cfg["G"], cfg["softening"]
    for _ in range(steps):                       # explicit Euler
        acc = accelerations(pos, m, G, eps)
        pos = [[p[k] + dt * v[k] for k in range(3)] for p, v in zip(pos, vel)]
        vel = [[v[k] + dt * a[k] for k in range(3)] for v, a in zip(vel, acc)]
    json.dump({"positions": pos, "velocities": vel}, open(sys.argv[4], "w"))


main()
