"""Usage: python3 predict.py INPUT.csv OUTPUT.csv  -> writes loan_id,probability"""
import pickle
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
art = pickle.load(open(HERE / "model.pkl", "rb"))
df = pd.read_csv(sys.argv[1])
df["employer_rate"] = df["employer"].map(art["emp_rate"]).fillna(art["global_rate"])
df["is_south"] = (df["region"] == "S").astype(int)
proba = art["model"].predict_proba(df[art["features"]])[:, 1]
pd.DataFrame({"loan_id": df["loan_id"], "probability": proba}).to_csv(sys.argv[2], index=False)
