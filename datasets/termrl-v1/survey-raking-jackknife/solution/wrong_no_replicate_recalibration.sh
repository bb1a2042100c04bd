#!/bin/bash
set -euo pipefail
cat > /app/rake.py <<'PY'
import csv
import json

import numpy as np


def rake(w, cats, cfg):
    N = cfg["population"]
    w = w * (N / w.sum())
    for _ in range(1000):
        for var in cfg["order"]:
            for c, p in cfg["margins"][var].items():
                m = cats[var] == c
                w[m] *= p * N / w[m].sum()
        dev = max(abs(w[cats[v] == c].sum() / N - p) for v in cfg["order"] for c, p in cfg["margins"][v].items())
        if dev < 1e-10:
            break
    return w


def calibrate(base, cats, cfg):
    cap = cfg["trim_factor"] * cfg["population"] / len(base)
    w = rake(base.copy(), cats, cfg)
    for _ in range(50):
        if w.max() <= cap * (1 + 1e-9):
            break
        w = rake(np.minimum(w, cap), cats, cfg)
    return w


def estimates(w, smoker, inc, inc_ok, region):
    est = {"smoking_rate": float((w * smoker).sum() / w.sum()),
           "mean_income": float((w * inc)[inc_ok].sum() / w[inc_ok].sum())}
    for reg in sorted(set(region)):
        m = region == reg
        est[f"smoking_rate_{reg}"] = float((w * smoker)[m].sum() / w[m].sum())
    return est


rows = list(csv.DictReader(open("/app/survey.csv")))
cfg = json.load(open("/app/margins.json"))
cats = {v: np.array([r[v] for r in rows]) for v in cfg["order"]}
region = np.array([r["region"] for r in rows])
smoker = np.array([r["smoker"] == "yes" for r in rows])
inc_ok = np.array([r["income"] != "" for r in rows])
inc = np.array([float(r["income"]) if r["income"] else 0.0 for r in rows])
base = np.array([float(r["base_weight"]) for r in rows])
psu = np.array([int(r["psu"]) for r in rows])

w = calibrate(base, cats, cfg)
est = estimates(w, smoker, inc, inc_ok, region)
G = sorted(set(psu))
reps = []
for g in G:
    k = psu != g
    wg = w[k] * len(G) / (len(G) - 1)
    reps.append(estimates(wg, smoker[k], inc[k], inc_ok[k], region[k]))
se = {key: float(np.sqrt((len(G) - 1) / len(G) * sum((r[key] - est[key]) ** 2 for r in reps))) for key in est}
with open("/app/weights.csv", "w", newline="") as f:
    wr = csv.writer(f)
    wr.writerow(["resp_id", "weight"])
    for r, x in zip(rows, w):
        wr.writerow([r["resp_id"], repr(float(x))])
json.dump({"estimates": est, "standard_errors": se,
           "design_effect": float(len(w) * (w ** 2).sum() / w.sum() ** 2)}, open("/app/estimates.json", "w"), indent=2)
PY
python3 /app/rake.py
