#!/bin/bash
set -euo pipefail
# Time-based pandas rolling windows with the default closed="right": the window (d-7d, d] includes the
# row's own value (leak) and drops day d-7.
cat > /app/features.py <<'PY'
import sys

import pandas as pd

df = pd.read_csv(sys.argv[1], dtype={"entity": str, "date": str}, keep_default_na=False)
df["value"] = pd.to_numeric(df["value"].replace("", None))
df["_t"] = pd.to_datetime(df["date"])
df["_i"] = range(len(df))
parts = []
for e, s in df.sort_values(["entity", "_t"]).groupby("entity", sort=False):
    s = s.copy()
    ser = s.set_index("_t")["value"]
    s["lag_1"] = ser.reindex(s["_t"] - pd.Timedelta(days=1)).to_numpy()
    s["lag_7"] = ser.reindex(s["_t"] - pd.Timedelta(days=7)).to_numpy()
    s["roll_mean_7"] = ser.rolling("7D", min_periods=3).mean().to_numpy()
    s["roll_max_28"] = ser.rolling("28D", min_periods=1).max().to_numpy()
    s["days_since_prev"] = s["_t"].diff().dt.days.astype("Int64")
    parts.append(s)
out = pd.concat(parts).sort_values("_i")
out = out[["entity", "date", "lag_1", "lag_7", "roll_mean_7", "roll_max_28", "days_since_prev"]]
out.to_csv(sys.argv[2], index=False, float_format="%.17g")
PY
