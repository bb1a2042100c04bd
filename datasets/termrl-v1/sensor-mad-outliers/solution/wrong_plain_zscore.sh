#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import json
import pandas as pd
df = pd.read_csv("/app/readings.csv", dtype={"value": str}, keep_default_na=False)
df = df[df["value"].str.strip() != ""].copy()
df["v"] = df["value"].astype(float)
summary, flagged = {}, []
for s, g in df.groupby("sensor"):
    m = g["v"].median()
    dev = (g["v"] - m).abs()
    mad = dev.median()
    score = (g["v"] - g["v"].mean()) / g["v"].std()
    out = g.assign(score=score)[score.abs() > 3.5]
    flagged.append(out)
    summary[s] = {"n": int(len(g)), "median": float(m), "mad": float(mad), "outliers": int(len(out))}
res = pd.concat(flagged).sort_values(["sensor", "ts"])
res["score"] = res["score"].round(3)
res[["sensor", "ts", "value", "score"]].to_csv("/app/outliers.csv", index=False)
json.dump(summary, open("/app/summary.json", "w"), indent=2)
PY
