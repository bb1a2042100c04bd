#!/bin/bash
set -euo pipefail
cat > /app/pcv.py <<'PY'
import csv
import json
import sys

import numpy as np


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    ev = [{"id": r["id"], "start": int(r["start"]), "end": int(r["end"]),
           "x": [float(r["x1"]), float(r["x2"]), float(r["x3"])], "y": float(r["y"])} for r in rows]
    ev.sort(key=lambda e: (e["start"], e["end"], e["id"]))
    return ev


def folds(ev, k, emb):
    n = len(ev)
    base, extra = divmod(n, k)
    out, pos = [], 0
    for f in range(k):
        size = base + (1 if f < extra else 0)
        test = list(range(pos, pos + size))
        pos += size
        a = min(ev[i]["start"] for i in test)
        b = max(ev[i]["end"] for i in test)
        tset = set(test)
        train = [i for i, e in enumerate(ev) if i not in tset
                 and not (e["start"] <= b and e["end"] >= a)
                 and not (b < e["start"] <= b + emb)]
        out.append((f, test, train))
    return out


def main():
    cmd, path, k, emb, outp = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    ev = load(path)
    fl = folds(ev, k, emb)
    if cmd == "splits":
        res = [{"fold": f, "test": [ev[i]["id"] for i in te], "train": [ev[i]["id"] for i in tr]} for f, te, tr in fl]
    else:
        X = np.array([[1.0] + e["x"] for e in ev])
        y = np.array([e["y"] for e in ev])
        res = {"folds": []}
        allerr = []
        for f, te, tr in fl:
            beta = np.linalg.lstsq(X[tr], y[tr], rcond=None)[0]
            err = (X[te] @ beta - y[te]) ** 2
            allerr.extend(err.tolist())
            res["folds"].append({"fold": f, "n_train": len(tr), "n_test": len(te), "mse": float(err.mean())})
        res["mse"] = float(np.mean(allerr))
    with open(outp, "w") as fh:
        json.dump(res, fh)


main()
PY
