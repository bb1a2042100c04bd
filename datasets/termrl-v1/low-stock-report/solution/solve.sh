#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import csv, json
prods = {r["sku"]: r for r in csv.DictReader(open("/app/products.csv"))}
stock = {s: 0 for s in prods}
for line in open("/app/moves.jsonl"):
    if not line.strip():
        continue
    m = json.loads(line)
    sku = m["sku"].strip().upper()
    if sku not in stock:
        continue
    q = int(m["qty"])
    stock[sku] += -q if m["kind"] == "out" else q
rows = []
for s, p in prods.items():
    rp = int(p["reorder_point"])
    if stock[s] < rp:
        rows.append([s, p["name"], p["category"], stock[s], rp, rp - stock[s]])
rows.sort(key=lambda r: (-r[5], r[0]))
with open("/app/low_stock.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["sku", "name", "category", "stock", "reorder_point", "shortfall"])
    w.writerows(rows)
PY
