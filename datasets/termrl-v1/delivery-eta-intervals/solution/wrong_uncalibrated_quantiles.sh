#!/bin/bash
# Plausible but wrong: quantile gradient boosting at exactly 0.1 / 0.5 / 0.9, trusted without checking the
# coverage on held-out data; the intervals come out too narrow (about 75 % coverage).
set -euo pipefail
cat > /app/eta_features.py <<'PY'
import pandas as pd


def features(df):
    x = df[["distance_km", "hour", "weekday", "items", "prep_estimate_min"]].astype(float).copy()
    for c, vals in (("courier", ["bike", "scooter", "car"]), ("weather", ["clear", "rain", "snow"])):
        for v in vals:
            x[f"{c}_{v}"] = (df[c] == v).astype(float)
    return x
PY
cat > /app/predict_eta.py <<'PY'
import sys
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
sys.path.insert(0, "/app")
from eta_features import features
tr = pd.read_csv("/app/data/deliveries.csv")
df = pd.read_csv(sys.argv[1])
out = {"order_id": df["order_id"]}
for name, a in (("q10", 0.1), ("q50", 0.5), ("q90", 0.9)):
    m = HistGradientBoostingRegressor(loss="quantile", quantile=a, max_iter=300, random_state=0)
    out[name] = m.fit(features(tr), tr["minutes"]).predict(features(df))
pd.DataFrame(out).to_csv(sys.argv[2], index=False)
PY
