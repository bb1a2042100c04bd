#!/bin/bash
# Plausible but wrong: zero-fills correctly, but the moving average is taken over the 28 days before each
# forecast day (rolling through the horizon, so it uses actuals after the origin) and the MASE scale is
# computed over the whole series.
set -euo pipefail
cat > /app/backtest.py <<'PY'
import argparse
import math
import numpy as np
import pandas as pd
ap = argparse.ArgumentParser()
ap.add_argument("sales"); ap.add_argument("out")
ap.add_argument("--horizon", type=int, required=True); ap.add_argument("--origins", type=int, required=True)
a = ap.parse_args()
H, K = a.horizon, a.origins
df = pd.read_csv(a.sales, dtype={"store": str, "sku": str})
df["date"] = pd.to_datetime(df["date"])
T = df["date"].max()
daily = df.groupby(["store", "sku", "date"], as_index=False)["units"].sum()
origins = [T - pd.Timedelta(days=H + 7 * j) for j in range(K)]
rows = []
for (store, sku), g in daily.groupby(["store", "sku"], sort=True):
    start = g["date"].min()
    if start > origins[-1] - pd.Timedelta(days=34):
        continue
    y = g.set_index("date")["units"].reindex(pd.date_range(start, T), fill_value=0).to_numpy(dtype=float)
    scale = float(np.mean(np.abs(y[7:] - y[:-7])))
    err = {"ma28": [], "naive7": []}
    for o in origins:
        p = (o - start).days
        for h in range(1, H + 1):
            d = p + h
            err["ma28"].append(abs(y[d] - y[d - 28:d].mean()))
            err["naive7"].append(abs(y[d] - y[d - 7 * math.ceil(h / 7)]))
    for m in ("ma28", "naive7"):
        mae = float(np.mean(err[m]))
        rows.append((store, sku, m, f"{mae:.6f}", "" if scale == 0 else f"{mae / scale:.6f}"))
with open(a.out, "w") as f:
    f.write("store,sku,method,mae,mase\n")
    for r in rows:
        f.write(",".join(r) + "\n")
PY
