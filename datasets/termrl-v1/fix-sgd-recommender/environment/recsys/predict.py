"""Predict ratings with a trained model (see README.md)."""
import argparse
import csv
import json
from pathlib import Path

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, type=Path)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    meta = json.loads((a.model / "meta.json").read_text())
    f = np.load(a.model / "factors.npz")
    P, Q, bu, bi = f["P"], f["Q"], f["bu"], f["bi"]
    mu = meta["mu"]
    with open(a.pairs, newline="") as src:
        pairs = list(csv.DictReader(src))
    users = {u: k for k, u in enumerate(dict.fromkeys(r["user"] for r in pairs))}
    items = {i: k for k, i in enumerate(dict.fromkeys(r["item"] for r in pairs))}
    with open(a.out, "w", newline="") as dst:
        w = csv.writer(dst, lineterminator="\n")
        w.writerow(["user", "item", "rating"])
        for row in pairs:
            u, i = users[row["user"]], items[row["item"]]
            p = mu + bu[u] + bi[i] + P[u] @ Q[i]
            w.writerow([row["user"], row["item"], f"{p:.4f}"])

if __name__ == "__main__":
    main()
