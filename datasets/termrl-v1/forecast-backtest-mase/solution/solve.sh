#!/bin/bash
set -euo pipefail
cat > /app/backtest.py <<'PY'
"""Rolling-origin backtest of naive7 and ma28 per (store, sku)."""
import argparse
import math

import numpy as np
import pandas as pd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sales")
    ap.add_argument("out")
    ap.add_argument("--horizon", type=int, required=True)
    ap.add_argument("--origins", type=int, required=True)
    a = ap.parse_args()
    H, K = a.horizon, a.origins

    df = pd.read_csv(a.sales, dtype={"store": str, "sku": str, "date": str, "units": np.int64})
    df["date"] = pd.to_datetime(df["date"])
    T = df["date"].max()
    daily = df.groupby(["store", "sku", "date"], as_index=False)["units"].sum()
    origins = [T - pd.Timedelta(days=H + 7 * j) for j in range(K)]
    first_origin = origins[-1]
    rows = []
    for (store, sku), g in daily.groupby(["store", "sku"], sort=True):
        start = g["date"].min()
        if start > first_origin - pd.Timedelta(days=34):
            continue
        idx = pd.date_range(start, T, freq="D")
        y = g.set_index("date")["units"].reindex(idx, fill_value=0).to_numpy(dtype=float)
        pos = lambda d: (d - start).days
        e0 = pos(first_origin)
        scale = float(np.mean(np.abs(y[7:e0 + 1] - y[0:e0 + 1 - 7])))
        err = {"ma28": [], "naive7": []}
        for o in origins:
            p = pos(o)
            ma = y[p - 27:p + 1].mean()
            for h in range(1, H + 1):
                actual = y[p + h]
                err["ma28"].append(abs(actual - ma))
                err["naive7"].append(abs(actual - y[p + h - 7 * math.ceil(h / 7)]))
        for m in ("ma28", "naive7"):
            mae = float(np.mean(err[m]))
            mase = "" if scale == 0 else f"{mae / scale:.6f}"
            rows.append((store, sku, m, f"{mae:.6f}", mase))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    with open(a.out, "w") as f:
        f.write("store,sku,method,mae,mase\n")
        for r in rows:
            f.write(",".join(r) + "\n")


if __name__ == "__main__":
    main()
PY
