#!/bin/bash
set -euo pipefail
# One-hot encodes the raw categorical strings: messy spellings become unseen categories
# and the row order is changed by a sort.
cat > /app/predict.py <<'PY'
import sys
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier
tr = pd.read_csv("/app/train.csv")
def f(df):
    X = pd.get_dummies(df[["tenure_months", "support_calls", "monthly_charge", "age", "contract", "payment_method"]])
    return X
Xtr = f(tr)
m = HistGradientBoostingClassifier(random_state=0).fit(Xtr, tr["churned"])
df = pd.read_csv(sys.argv[1]).sort_values("id", ascending=False)
X = f(df).reindex(columns=Xtr.columns, fill_value=0)
pd.DataFrame({"id": df["id"], "churned": m.predict(X)}).to_csv(sys.argv[2], index=False)
PY
