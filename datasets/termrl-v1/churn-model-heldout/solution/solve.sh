#!/bin/bash
set -euo pipefail
cat > /app/churn_features.py <<'PY'
import numpy as np
import pandas as pd

CATS = {"contract": ["month", "annual", "biennial"], "payment_method": ["card", "bank", "check"],
        "region": ["north", "south", "east", "west"]}


def features(df):
    out = pd.DataFrame(index=df.index)
    for c in ("tenure_months", "support_calls", "monthly_charge"):
        out[c] = df[c].astype(float)
    out["age"] = df["age"].astype(float).fillna(45.0)
    out["age_missing"] = df["age"].isna().astype(float)
    out["age_dev"] = (out["age"] - 45).abs()
    for c, levels in CATS.items():
        v = df[c].astype(str).str.strip().str.lower()
        for lv in levels:
            out[f"{c}={lv}"] = (v == lv).astype(float)
    out["calls_check"] = out["support_calls"] * out["payment_method=check"]
    return out
PY
cat > /app/train_model.py <<'PY'
import pickle
import sys
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier
sys.path.insert(0, "/app")
from churn_features import features
df = pd.read_csv("/app/train.csv")
model = HistGradientBoostingClassifier(random_state=0, max_iter=200, learning_rate=0.05)
model.fit(features(df), df["churned"])
pickle.dump(model, open("/app/model.pkl", "wb"))
PY
cat > /app/predict.py <<'PY'
import pickle
import sys
import pandas as pd
sys.path.insert(0, "/app")
from churn_features import features
df = pd.read_csv(sys.argv[1])
model = pickle.load(open("/app/model.pkl", "rb"))
pd.DataFrame({"id": df["id"], "churned": model.predict(features(df)).astype(int)}).to_csv(sys.argv[2], index=False)
PY
python3 /app/train_model.py
