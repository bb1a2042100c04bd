#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import json
import numpy as np
import pandas as pd
from scipy import stats

a = pd.read_csv("/app/assignments.csv", parse_dates=["assigned_at"])
e = pd.read_csv("/app/events.csv", parse_dates=["ts"])
bots = {l.strip() for l in open("/app/bots.txt") if l.strip() and not l.startswith("#")}
nvar = a.groupby("user_id")["variant"].nunique()
bad = set(nvar[nvar > 1].index) | (bots & set(a["user_id"]))
users = a[~a["user_id"].isin(bad)].groupby("user_id").agg(variant=("variant", "first"), assigned_at=("assigned_at", "min"))
p = e[e["event"] == "purchase"].merge(users, left_on="user_id", right_index=True)

rev = p.groupby("user_id")["value"].sum()
users["revenue"] = rev.reindex(users.index).fillna(0.0)
users["conv"] = users.index.isin(rev.index)
out = {}
for v in "AB":
    g = users[users["variant"] == v]
    out[v] = {"users": int(len(g)), "converters": int(g["conv"].sum()), "rate": float(g["conv"].mean()),
              "revenue_per_user": float(g["revenue"].mean())}
nA, nB = out["A"]["users"], out["B"]["users"]
rA, rB = out["A"]["rate"], out["B"]["rate"]
pp = (out["A"]["converters"] + out["B"]["converters"]) / (nA + nB)
z = (rB - rA) / np.sqrt(pp * (1 - pp) * (1 / nA + 1 / nB))
se = np.sqrt(rA * (1 - rA) / nA + rB * (1 - rB) / nB)
t = stats.ttest_ind(users[users.variant == "B"]["revenue"], users[users.variant == "A"]["revenue"], equal_var=False)
out.update(z=float(z), p_value=float(2 * stats.norm.sf(abs(z))), diff_ci95=[float(rB - rA - 1.959964 * se), float(rB - rA + 1.959964 * se)],
           welch_t=float(t.statistic), welch_p=float(t.pvalue), excluded_users=len(bad))
json.dump(out, open("/app/results.json", "w"), indent=2)
PY
