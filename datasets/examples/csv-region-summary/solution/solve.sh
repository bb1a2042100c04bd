#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import csv
import json

summary = {}
with open("/app/sales.csv", newline="") as fh:
    for row in csv.DictReader(fh):
        if row["status"] == "cancelled":
            continue
        region = summary.setdefault(row["region"], {"orders": 0, "units": 0, "revenue": 0.0})
        units = int(row["units"])
        region["orders"] += 1
        region["units"] += units
        region["revenue"] += units * float(row["unit_price"])

for region in summary.values():
    region["revenue"] = round(region["revenue"], 2)

with open("/app/summary.json", "w") as fh:
    json.dump(summary, fh, indent=2, sort_keys=True)
    fh.write("\n")
PY
