#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import json
import numpy as np
import pandas as pd

s = pd.read_csv("/app/sales.csv", parse_dates=["date"]).set_index("date")["sales"].sort_index()
idx = pd.date_range(s.index.min(), s.index.max(), freq="D")
y = s.reindex(idx)
filled = y.isna().astype(int)
y = y.interpolate(method="time")
trend = y.rolling(7, center=True).mean()
d = y - trend
wd = idx.weekday
raw = pd.Series(d.values).groupby(wd).mean()
seas_idx = raw - raw.mean()
seasonal = pd.Series(seas_idx.reindex(wd).values, index=idx)
resid = y - trend - seasonal
r = resid.dropna()
med = r.median()
mad = (r - med).abs().median()
anom = resid[(resid - med).abs() > 3 * 1.4826 * mad].index
pos = np.arange(len(idx))
ok = trend.notna().values
b, a = np.polyfit(pos[ok], trend.values[ok], 1)
out = pd.DataFrame({"date": idx.strftime("%Y-%m-%d"), "sales": y.values, "filled": filled.values,
                    "trend": trend.values, "seasonal": seasonal.values, "resid": resid.values})
out.to_csv("/app/decomposition.csv", index=False, float_format="%.10g")
names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
json.dump({"dates": [x.strftime("%Y-%m-%d") for x in anom], "seasonal_index": {names[k]: float(seas_idx[k]) for k in range(7)},
           "trend_slope": float(b)}, open("/app/anomalies.json", "w"), indent=2)
fut = pd.date_range(idx[-1] + pd.Timedelta(days=1), periods=14, freq="D")
fpos = np.arange(len(idx), len(idx) + 14)
pd.DataFrame({"date": fut.strftime("%Y-%m-%d"), "forecast": a + b * fpos + seas_idx.reindex(fut.weekday).values}).to_csv(
    "/app/forecast.csv", index=False, float_format="%.10g")
PY
