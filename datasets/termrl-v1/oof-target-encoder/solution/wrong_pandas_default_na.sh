#!/bin/bash
set -euo pipefail
# Plausible pandas version: default read_csv turns "", "NA", "null", "nan" into NaN, and groupby drops NaN keys,
# so those categories are treated as unseen (prior) instead of categories of their own.
cat > /app/te.py <<'PY'
import argparse
import pandas as pd


def enc_series(values, rest, col, target, m):
    rest = rest[rest[target].notna()]
    p = rest[target].mean()
    g = rest.groupby(col)[target].agg(["sum", "count"])
    e = (g["sum"] + m * p) / (g["count"] + m)
    return values.map(e).fillna(p)


ap = argparse.ArgumentParser()
for x in ("--train", "--test", "--cols", "--target", "--fold-col", "--out-train", "--out-test"):
    ap.add_argument(x, required=True)
ap.add_argument("--m", type=float, required=True)
a = ap.parse_args()
cols = a.cols.split(",")
tr = pd.read_csv(a.train, dtype={"id": str})
te = pd.read_csv(a.test, dtype={"id": str})
otr = pd.DataFrame({"id": tr["id"]})
ote = pd.DataFrame({"id": te["id"]})
for c in cols:
    out = pd.Series(0.0, index=tr.index)
    for f in tr[a.fold_col].unique():
        mask = tr[a.fold_col] == f
        out[mask] = enc_series(tr.loc[mask, c], tr[~mask], c, a.target, a.m)
    otr["te_" + c] = out
    ote["te_" + c] = enc_series(te[c], tr, c, a.target, a.m)
otr.to_csv(a.out_train, index=False, float_format="%.12g")
ote.to_csv(a.out_test, index=False, float_format="%.12g")
PY
