"""Train the default-risk model. Writes model.pkl and metrics.json next to this file."""
import json
import pickle
from pathlib import Path

import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import cross_val_score

HERE = Path(__file__).resolve().parent

df = pd.read_csv("/app/data/loans.csv")
y = df["defaulted"]

# employers differ a lot in risk: encode each employer by its default rate
emp_rate = df.groupby("employer")["defaulted"].mean()
df["employer_rate"] = df["employer"].map(emp_rate)
df["is_south"] = (df["region"] == "S").astype(int)

FEATURES = ["income", "debt_ratio", "age", "loan_amount", "is_south", "employer_rate", "collections_flag"]

model = HistGradientBoostingClassifier(random_state=0)
cv_auc = cross_val_score(model, df[FEATURES], y, cv=5, scoring="roc_auc").mean()
model.fit(df[FEATURES], y)

with open(HERE / "model.pkl", "wb") as f:
    pickle.dump({"model": model, "emp_rate": emp_rate, "global_rate": float(y.mean()), "features": FEATURES}, f)
with open(HERE / "metrics.json", "w") as f:
    json.dump({"cv_auc": float(cv_auc)}, f, indent=2)
print(f"cv_auc={cv_auc:.4f}")
