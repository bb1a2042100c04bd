#!/bin/bash
set -euo pipefail
cat > /app/fifo.py <<'PY'
import csv
import json
import sys
from decimal import ROUND_HALF_UP, Decimal

Q = Decimal("0.01")


def money(d):
    return float(d.quantize(Q, ROUND_HALF_UP))


def run(path):
    rows = list(csv.DictReader(open(path, newline="")))
    rows.sort(key=lambda r: (r["date"], int(r["txn_id"])))
    layers, stats, rejected, by_month = {}, {}, [], {}
    for r in rows:
        sku, typ, qty = r["sku"], r["type"], int(r["qty"])
        L = layers.setdefault(sku, [])
        st = stats.setdefault(sku, {"cogs": Decimal(0), "revenue": Decimal(0), "shrinkage_cost": Decimal(0)})
        if typ == "BUY":
            L.append([qty, Decimal(r["unit_price"])])
            continue
        if typ == "ADJUST" and qty > 0:
            units = sum(q for q, _ in L)
            cost = (sum(q * c for q, c in L) / units) if units else Decimal(0)
            L.append([qty, cost])
            continue
        need = qty if typ == "SELL" else -qty
        if sum(q for q, _ in L) < need:
            need = sum(q for q, _ in L)
        cost = Decimal(0)
        while need:
            take = min(need, L[0][0])
            cost += take * L[0][1]
            L[0][0] -= take
            need -= take
            if L[0][0] == 0:
                L.pop(0)
        if typ == "SELL":
            st["cogs"] += cost
            st["revenue"] += qty * Decimal(r["unit_price"])
            m = r["date"][:7]
            by_month[m] = by_month.get(m, Decimal(0)) + cost
        else:
            st["shrinkage_cost"] += cost
    skus = {}
    for sku in sorted(layers):
        st = stats[sku]
        skus[sku] = {"on_hand": sum(q for q, _ in layers[sku]),
                     "inventory_value": money(sum((q * c for q, c in layers[sku]), Decimal(0))),
                     "cogs": money(st["cogs"]), "revenue": money(st["revenue"]),
                     "gross_margin": money(st["revenue"] - st["cogs"]), "shrinkage_cost": money(st["shrinkage_cost"])}
    return {"skus": skus, "rejected": sorted(int(x) for x in rejected),
            "cogs_by_month": {m: money(v) for m, v in sorted(by_month.items())}}


if __name__ == "__main__":
    json.dump(run(sys.argv[1]), open(sys.argv[2], "w"), indent=2)
PY
