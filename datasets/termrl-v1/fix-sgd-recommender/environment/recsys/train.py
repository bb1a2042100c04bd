"""Train a biased matrix factorisation model by SGD (see README.md)."""
import argparse
import csv
import json
from pathlib import Path

import numpy as np

K, LR, REG, EPOCHS, SEED = 16, 0.01, 0.05, 25, 7


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ratings", required=True)
    ap.add_argument("--model", required=True, type=Path)
    a = ap.parse_args()

    users, items, triples = {}, {}, []
    with open(a.ratings, newline="") as f:
        for row in csv.DictReader(f):
            u = users.setdefault(row["user"], len(users))
            i = items.setdefault(row["item"], len(items))
            triples.append((u, i, float(row["rating"])))
    U = np.array([t[0] for t in triples])
    I = np.array([t[1] for t in triples])
    R = np.array([t[2] for t in triples])
    mu = 3.0  # centre of the 1-5 scale; the biases absorb the rest

    rng = np.random.default_rng(SEED)
    P = rng.normal(0, 0.1, (len(users), K))
    Q = rng.normal(0, 0.1, (len(items), K))
    bu = np.zeros(len(users))
    bi = np.zeros(len(items))
    lr = LR
    for _ in range(EPOCHS):
        for n in rng.permutation(len(R)):
            u, i = U[n], I[n]
            e = R[n] - (mu + bu[u] + bi[i] + P[u] @ Q[i])
            bu[u] += lr * (e - REG * bu[u])
            bi[i] += lr * (e - REG * bi[i])
            pu = P[u].copy()
            P[u] += lr * (e * Q[i] + REG * P[u])
            Q[i] += lr * (e * pu + REG * Q[i])
        lr *= 0.8  # anneal

    a.model.mkdir(parents=True, exist_ok=True)
    np.savez(a.model / "factors.npz", P=P, Q=Q, bu=bu, bi=bi)
    (a.model / "meta.json").write_text(json.dumps({"mu": mu, "users": users, "items": items}))


if __name__ == "__main__":
    main()
