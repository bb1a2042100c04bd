#!/bin/bash
set -euo pipefail
# Out-of-fold category counts, but the smoothing prior p comes from all training rows (leaks the row's fold).
cat > /app/te.py <<'PY'
import argparse
import csv
from collections import defaultdict


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def stats(rows, col, target):
    n = defaultdict(int)
    s = defaultdict(float)
    tot_n = 0
    tot_s = 0.0
    for r in rows:
        t = r[target]
        if t == "":
            continue
        v = float(t)
        n[r[col]] += 1
        s[r[col]] += v
        tot_n += 1
        tot_s += v
    return n, s, (tot_s / tot_n if tot_n else 0.0)


def enc(value, st, m):
    n, s, p = st
    k = n.get(value, 0)
    if k == 0:
        return p
    return (s[value] + m * p) / (k + m)


def main():
    ap = argparse.ArgumentParser()
    for a in ("--train", "--test", "--cols", "--target", "--fold-col", "--out-train", "--out-test"):
        ap.add_argument(a, required=True)
    ap.add_argument("--m", type=float, required=True)
    a = ap.parse_args()
    cols = a.cols.split(",")
    train, test = read(a.train), read(a.test)
    folds = sorted({int(r[a.fold_col]) for r in train})
    per_fold = {}
    full = {c: stats(train, c, a.target) for c in cols}
    for f in folds:
        rest = [r for r in train if int(r[a.fold_col]) != f]
        per_fold[f] = {c: stats(rest, c, a.target)[:2] + (full[c][2],) for c in cols}
    header = ["id"] + ["te_" + c for c in cols]
    with open(a.out_train, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in train:
            st = per_fold[int(r[a.fold_col])]
            w.writerow([r["id"]] + [repr(enc(r[c], st[c], a.m)) for c in cols])
    with open(a.out_test, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in test:
            w.writerow([r["id"]] + [repr(enc(r[c], full[c], a.m)) for c in cols])


if __name__ == "__main__":
    main()
PY
