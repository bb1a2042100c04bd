#!/bin/bash
# Plausible but wrong: learns the prices with a gradient-boosted regressor on engineered features instead of
# recovering the tariff; close on average, but not to the cent.
set -euo pipefail
cat > /app/quote.py <<'PY'
import sys
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor


def feats(df):
    X = pd.DataFrame({"zone": df["zone"], "express": (df["service"] == "express").astype(int),
                      "kg": df["weight_g"] / 1000, "vol": df["length_cm"] * df["width_cm"] * df["height_cm"] / 5000,
                      "longest": df[["length_cm", "width_cm", "height_cm"]].max(axis=1),
                      "res": df["residential"], "dv": df["declared_value"]})
    X["billable"] = np.maximum(np.ceil(np.maximum(X["kg"], X["vol"]) * 2) / 2, 0.5)
    return X


tr = pd.read_csv("/app/quotes.csv")
m = HistGradientBoostingRegressor(max_iter=600, learning_rate=0.05, random_state=0).fit(feats(tr), tr["price"])
df = pd.read_csv(sys.argv[1])
pd.DataFrame({"id": df["id"], "price": np.round(m.predict(feats(df)), 2)}).to_csv(sys.argv[2], index=False,
                                                                                float_format="%.2f")
PY
