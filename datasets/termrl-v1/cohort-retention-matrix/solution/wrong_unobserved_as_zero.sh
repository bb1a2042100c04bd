#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import json
import pandas as pd

u = pd.read_csv("/app/users.csv", parse_dates=["signup_date"])
a = pd.read_csv("/app/activity.csv", parse_dates=["date"]).drop_duplicates()
a = a.merge(u, on="user_id")
a = a[a["date"] >= a["signup_date"]]
u["cohort"] = u["signup_date"].dt.to_period("M")
a["cohort"] = a["signup_date"].dt.to_period("M")
a["k"] = (a["date"].dt.to_period("M") - a["cohort"]).apply(lambda x: x.n)
last = a["date"].max().to_period("M")
sizes = u.groupby("cohort").size()
rows, num, den = [], [0] * 6, [0] * 6
for c, size in sizes.items():
    row = [str(c), int(size)]
    for k in range(6):
        n = a[(a["cohort"] == c) & (a["k"] == k)]["user_id"].nunique()
        num[k] += n
        den[k] += size
        row.append(f"{n / size:.4f}")
    rows.append(row)
pd.DataFrame(rows, columns=["cohort", "size"] + [f"m{k}" for k in range(6)]).to_csv("/app/retention.csv", index=False)
json.dump({"last_month": str(last), "weighted_retention": {f"m{k}": (round(num[k] / den[k], 4) if den[k] else None) for k in range(6)}},
          open("/app/summary.json", "w"), indent=2)
PY
