#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import json
import numpy as np
import pandas as pd
from scipy import stats

df = pd.read_csv("/app/housing.csv", dtype=str, keep_default_na=False)
df["price"] = pd.to_numeric(df["price"], errors="coerce")
df["sqft"] = pd.to_numeric(df["sqft"], errors="coerce")
df = df.dropna(subset=["price", "sqft"])
df["nb"] = df["neighborhood"].str.lower()
levels = sorted(df["nb"].unique())
names = ["const", "sqft", "bedrooms", "age"] + [f"nb_{l}" for l in levels[1:]]


def design(sqft, bed, age, nb):
    cols = [np.ones(len(sqft)), np.asarray(sqft, float), np.asarray(bed, float), np.asarray(age, float)]
    cols += [(np.asarray(nb) == l).astype(float) for l in levels[1:]]
    return np.column_stack(cols)


X = design(df["sqft"], df["bedrooms"], df["age"], df["nb"])
y = np.log(df["price"].to_numpy(float))
n, k = X.shape
XtX_inv = np.linalg.inv(X.T @ X)
b = XtX_inv @ X.T @ y
e = y - X @ b
dfr = n - k
s2 = e @ e / dfr
se = np.sqrt(np.diag(XtX_inv) * s2)
t = b / se
p = 2 * stats.t.sf(np.abs(t), dfr)
tss = ((y - y.mean()) ** 2).sum()
r2 = 1 - (e @ e) / tss
adj = 1 - (1 - r2) * (n - 1) / dfr
f = (r2 / (k - 1)) / ((1 - r2) / dfr)
hc1 = np.sqrt(np.diag(XtX_inv @ (X.T * e ** 2) @ X @ XtX_inv))
newX = design([1500, 900], [3, 2], [20, 60], ["hills", "riverside"])
out = {"n": int(n), "df_resid": int(dfr), "coef": dict(zip(names, b.tolist())), "se": dict(zip(names, se.tolist())),
       "t": dict(zip(names, t.tolist())), "p": dict(zip(names, p.tolist())), "r2": float(r2), "adj_r2": float(adj),
       "f_stat": float(f), "f_p": float(stats.f.sf(f, k - 1, dfr)), "hc1_se": dict(zip(names, hc1.tolist())),
       "predictions": np.exp(newX @ b).tolist()}
json.dump(out, open("/app/ols.json", "w"), indent=2)
PY
