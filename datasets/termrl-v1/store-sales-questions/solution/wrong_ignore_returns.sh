#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import json
import pandas as pd
df = pd.read_csv("/app/transactions.csv")
df = df[df["quantity"] > 0]
df["value"] = df["quantity"] * df["unit_price"]
month = df.groupby(df["date"].str[:7])["value"].sum()
units = df.groupby("product")["quantity"].sum().reset_index()
units = units.sort_values(["quantity", "product"], ascending=[False, True])
orders = df.groupby("order_id")["value"].sum()
sales = df[df["quantity"] > 0]
nprod = sales.groupby("order_id")["product"].nunique().reindex(orders.index, fill_value=0)
rate = {}
for s, g in df.groupby("store"):
    rate[s] = round(float((g["quantity"] < 0).sum() / (g["quantity"] > 0).sum()), 4)
out = {
    "net_revenue": round(float(df["value"].sum()), 2),
    "best_month": month.idxmax(),
    "top_products": units["product"].head(3).tolist(),
    "avg_order_value": round(float(df["value"].mean()), 2),
    "multi_product_share": round(float((nprod >= 2).mean()), 4),
    "store_return_rate": rate,
}
json.dump(out, open("/app/answers.json", "w"), indent=2)
PY
