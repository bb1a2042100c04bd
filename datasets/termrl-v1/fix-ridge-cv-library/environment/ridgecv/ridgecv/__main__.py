import argparse
import csv
import json

import numpy as np

from .cv import select_alpha


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(v) for v in r] for r in rows[1:]])


def train(a):
    header, data = read_csv(a.data)
    ti = header.index(a.target)
    feats = [h for h in header if h != a.target]
    X = np.delete(data, ti, axis=1)
    y = data[:, ti]
    names = a.alphas.split(",")
    alphas = [float(s) for s in names]
    alpha, scores, model = select_alpha(X, y, alphas, a.folds, a.seed)
    out = {"features": feats, "alpha": alpha,
           "cv_mse": {n: scores[v] for n, v in zip(names, alphas)},
           "mean": model.scaler.mean_.tolist(), "scale": model.scaler.scale_.tolist(),
           "coef": model.ridge.coef_.tolist(), "intercept": model.ridge.intercept_}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)


def predict(a):
    m = json.load(open(a.model))
    header, data = read_csv(a.input)
    X = data[:, [header.index(f) for f in m["features"]]]
    p = ((X - np.array(m["mean"])) / np.array(m["scale"])) @ np.array(m["coef"]) + m["intercept"]
    with open(a.output, "w") as f:
        f.write("prediction\n")
        for v in p:
            f.write(repr(float(v)) + "\n")


def main():
    ap = argparse.ArgumentParser(prog="ridgecv")
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("data")
    t.add_argument("--target", required=True)
    t.add_argument("--alphas", required=True)
    t.add_argument("--folds", type=int, default=5)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", required=True)
    p = sub.add_parser("predict")
    p.add_argument("model")
    p.add_argument("input")
    p.add_argument("output")
    a = ap.parse_args()
    train(a) if a.cmd == "train" else predict(a)


main()
