#!/bin/bash
set -euo pipefail
cat > /app/pipeline/train.py <<'PY'
"""Train the default-risk model without leakage.

* collections_flag is recorded after the outcome (post-default) -> dropped.
* employer target encoding is smoothed and computed out-of-fold, and the
  cross-validation refits the encoding inside each fold.
"""
import json
import pickle
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import KFold

HERE = Path(__file__).resolve().parent
NUM = ["income", "debt_ratio", "age", "loan_amount"]
SMOOTH = 20.0


def fit_encoding(emp, y):
    g = pd.DataFrame({"e": emp, "y": y}).groupby("e")["y"].agg(["sum", "count"])
    prior = float(np.mean(y))
    return ((g["sum"] + SMOOTH * prior) / (g["count"] + SMOOTH)).to_dict(), prior


def apply_encoding(emp, enc):
    mapping, prior = enc
    return pd.Series(emp).map(mapping).fillna(prior).to_numpy()


def oof_encoding(emp, y, seed=0):
    out = np.zeros(len(y))
    for tr, va in KFold(5, shuffle=True, random_state=seed).split(emp):
        out[va] = apply_encoding(emp[va], fit_encoding(emp[tr], y[tr]))
    return out


def base(df):
    X = df[NUM].astype(float).copy()
    X["is_south"] = (df["region"] == "S").astype(float).to_numpy()
    return X.reset_index(drop=True)


def fit(df, y):
    emp = df["employer"].to_numpy()
    X = base(df)
    X["employer_rate"] = oof_encoding(emp, y)
    model = HistGradientBoostingClassifier(random_state=0).fit(X, y)
    return model, fit_encoding(emp, y)


def predict(model, enc, df):
    X = base(df)
    X["employer_rate"] = apply_encoding(df["employer"].to_numpy(), enc)
    return model.predict_proba(X)[:, 1]


if __name__ == "__main__":
    df = pd.read_csv("/app/data/loans.csv")
    y = df["defaulted"].to_numpy()
    aucs = []
    for tr, va in KFold(5, shuffle=True, random_state=1).split(df):
        m, enc = fit(df.iloc[tr], y[tr])
        aucs.append(roc_auc_score(y[va], predict(m, enc, df.iloc[va])))
    cv_auc = float(np.mean(aucs))
    model, enc = fit(df, y)
    with open(HERE / "model.pkl", "wb") as f:
        pickle.dump({"model": model, "enc": enc}, f)
    with open(HERE / "metrics.json", "w") as f:
        json.dump({"cv_auc": cv_auc}, f, indent=2)
    print(f"cv_auc={cv_auc:.4f}")
PY
cat > /app/pipeline/predict.py <<'PY'
"""Usage: python3 predict.py INPUT.csv OUTPUT.csv  -> writes loan_id,probability"""
import pickle
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from train import predict  # noqa: E402

art = pickle.load(open(HERE / "model.pkl", "rb"))
df = pd.read_csv(sys.argv[1])
proba = predict(art["model"], art["enc"], df)
pd.DataFrame({"loan_id": df["loan_id"], "probability": proba}).to_csv(sys.argv[2], index=False)
PY
cd /app/pipeline && python3 train.py
