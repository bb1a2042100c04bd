#!/usr/bin/env python3
"""k-nearest-neighbour classifier with k chosen by leave-one-out (pure Python reference version).

    python3 knn.py TRAIN.csv TEST.csv OUT.json [--ks 1,3,5,7,9,11,13,15]

TRAIN.csv and TEST.csv: a header line, then `label,f0,f1,...` rows of integers (labels >= 0,
features 0-255; TEST.csv labels are ignored).

1. For every k in --ks, leave-one-out on the training set: each training point is classified by
   its k nearest *other* training points (only the point itself is left out); count the correct ones.
2. chosen_k: the k with the most correct leave-one-out predictions (the smallest such k on a tie).
3. Every test point is classified with chosen_k.

Distance: squared Euclidean; equal distances are ordered by the training row (earlier first).
Vote: each of the k neighbours adds 1 / (1 + sqrt(distance)) to its label's total, nearest first;
the label with the largest total wins, the smallest label on equal totals.

OUT.json: {"ks": [...], "loo_correct": [count per k], "chosen_k": k,
           "predictions": [[label, winning_total], ...]}  (one per test row, in order)
"""
import argparse
import json
import math
import sys


def read_rows(path):
    rows = []
    with open(path) as fh:
        next(fh)
        for line in fh:
            line = line.strip()
            if line:
                values = [int(v) for v in line.split(",")]
                rows.append((values[0], values[1:]))
    return rows


def sqdist(a, b):
    s = 0
    for x, y in zip(a, b):
        s += (x - y) * (x - y)
    return s


def neighbours(point, train, kmax, skip=None):
    """The kmax nearest training rows as (distance, row) pairs, nearest first."""
    found = []
    for idx, (_, feats) in enumerate(train):
        if idx != skip:
            found.append((sqdist(point, feats), idx))
    found.sort()
    return found[:kmax]


def vote(nbrs, train, k):
    totals = {}
    for d, idx in nbrs[:k]:
        label = train[idx][0]
        totals[label] = totals.get(label, 0.0) + 1.0 / (1.0 + math.sqrt(d))
    label, total = min(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return label, total


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("train")
    ap.add_argument("test")
    ap.add_argument("out")
    ap.add_argument("--ks", default="1,3,5,7,9,11,13,15")
    args = ap.parse_args(argv)
    ks = [int(k) for k in args.ks.split(",")]
    train, test = read_rows(args.train), read_rows(args.test)
    kmax = max(ks)
    if not 1 <= min(ks) or kmax >= len(train):
        sys.exit("every k must be between 1 and the number of training rows - 1")

    correct = [0] * len(ks)
    for idx, (label, feats) in enumerate(train):
        nbrs = neighbours(feats, train, kmax, skip=idx)
        for n, k in enumerate(ks):
            if vote(nbrs, train, k)[0] == label:
                correct[n] += 1
    chosen = min(zip(ks, correct), key=lambda kc: (-kc[1], kc[0]))[0]

    predictions = []
    for _, feats in test:
        label, total = vote(neighbours(feats, train, chosen), train, chosen)
        predictions.append([label, total])

    with open(args.out, "w") as fh:
        json.dump({"ks": ks, "loo_correct": correct, "chosen_k": chosen, "predictions": predictions}, fh)
        fh.write("\n")


if __name__ == "__main__":
    main()
