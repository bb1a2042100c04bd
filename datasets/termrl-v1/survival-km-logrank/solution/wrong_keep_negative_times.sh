#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import json
import numpy as np
import pandas as pd
from scipy import stats

df = pd.read_csv("/app/trial.csv", dtype=str, keep_default_na=False)
n0 = len(df)
df = df[df["last_date"] != ""].copy()
df["time"] = (pd.to_datetime(df["last_date"]) - pd.to_datetime(df["enrolled"])).dt.days
df["time"] = df["time"].abs()
df["event"] = (df["status"] == "dead").astype(int)
out = {"excluded": int(n0 - len(df))}


def km(g):
    S, var, res = 1.0, 0.0, {"n": int(len(g)), "events": int(g["event"].sum()), "median_days": None}
    s365, v365 = 1.0, 0.0
    for t in sorted(g.loc[g["event"] == 1, "time"].unique()):
        n = int((g["time"] >= t).sum())
        d = int(((g["time"] == t) & (g["event"] == 1)).sum())
        S *= 1 - d / n
        if n > d:
            var += d / (n * (n - d))
        if res["median_days"] is None and S <= 0.5:
            res["median_days"] = int(t)
        if t <= 365:
            s365, v365 = S, var
    se = s365 * np.sqrt(v365)
    res["surv_365"] = s365
    res["ci95_365"] = [max(0.0, s365 - 1.959964 * se), min(1.0, s365 + 1.959964 * se)]
    return res


for arm in ("control", "treatment"):
    out[arm] = km(df[df["arm"] == arm])
O = E = V = D = 0.0
for t in sorted(df.loc[df["event"] == 1, "time"].unique()):
    risk = df["time"] >= t
    n = int(risk.sum())
    n1 = int((risk & (df["arm"] == "treatment")).sum())
    dt_ = int(((df["time"] == t) & (df["event"] == 1)).sum())
    d1 = int(((df["time"] == t) & (df["event"] == 1) & (df["arm"] == "treatment")).sum())
    O += d1
    D += dt_
    E += dt_ * n1 / n
    if n > 1:
        V += dt_ * (n1 / n) * (1 - n1 / n) * (n - dt_) / (n - 1)
chi2 = (O - E) ** 2 / V
out["logrank"] = {"chi2": chi2, "p_value": float(stats.chi2.sf(chi2, 1)), "hazard_ratio": (O / E) / ((D - O) / (D - E))}
json.dump(out, open("/app/survival.json", "w"), indent=2)
PY
