#!/bin/bash
set -euo pipefail
# Plausible pandas version: shift(1) then row-based rolling windows and row-based lags,
# which ignores gaps in the calendar (7 rows != 7 days).
cat > /app/features.py <<'PY'
import sys

import pandas as pd

df = pd.read_csv(sys.argv[1], dtype={"entity": str, "date": str}, keep_default_na=False)
df["value"] = pd.to_numeric(df["value"].replace("", None))
df["_t"] = pd.to_datetime(df["date"])
df["_i"] = range(len(df))
s = df.sort_values(["entity", "_t"])
g = s.groupby("entity")["value"]
s["lag_1"] = g.shift(1)
s["lag_7"] = g.shift(7)
s["roll_mean_7"] = g.transform(lambda x: x.shift(1).rolling(7, min_periods=3).mean())
s["roll_max_28"] = g.transform(lambda x: x.shift(1).rolling(28, min_periods=1).max())
s["days_since_prev"] = s.groupby("entity")["_t"].diff().dt.days.astype("Int64")
out = s.sort_values("_i")[["entity", "date", "lag_1", "lag_7", "roll_mean_7", "roll_max_28", "days_since_prev"]]
out.to_csv(sys.argv[2], index=False, float_format="%.17g")
PY
