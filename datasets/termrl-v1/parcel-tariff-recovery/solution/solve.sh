#!/bin/bash
# The tariff recovered from quotes.csv: billable weight = max(actual kg, L*W*H/5000) rounded up to 0.5 kg
# (at least 0.5); base = fixed fee per service + rate per kg per (service, zone); +18.00 when the longest
# side exceeds 100 cm; fuel 7.5 % of (base + oversize); +2.75 residential; insurance 1.2 % of the declared
# value above 250; rounded half-up to the cent once, at the end.
set -euo pipefail
cat > /app/quote.py <<'PY'
import csv
import sys
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal as D

FIX = {"standard": D("4.90"), "express": D("9.50")}
PERKG = {"standard": [D("0.85"), D("1.10"), D("1.45"), D("1.95"), D("2.60"), D("3.40")],
         "express": [D("1.60"), D("2.05"), D("2.70"), D("3.55"), D("4.65"), D("6.10")]}


def price(r):
    l, w, h = int(r["length_cm"]), int(r["width_cm"]), int(r["height_cm"])
    kg = max(D(int(r["weight_g"])) / 1000, D(l * w * h) / 5000)
    billable = max((kg * 2).to_integral_value(rounding=ROUND_CEILING) / 2, D("0.5"))
    base = FIX[r["service"]] + PERKG[r["service"]][int(r["zone"]) - 1] * billable
    oversize = D("18.00") if max(l, w, h) > 100 else D(0)
    total = (base + oversize) * D("1.075")
    if int(r["residential"]):
        total += D("2.75")
    dv = D(r["declared_value"])
    if dv > 250:
        total += (dv - 250) * D("0.012")
    return total.quantize(D("0.01"), rounding=ROUND_HALF_UP)


with open(sys.argv[1], newline="") as f, open(sys.argv[2], "w", newline="") as g:
    w = csv.writer(g, lineterminator="\n")
    w.writerow(["id", "price"])
    for r in csv.DictReader(f):
        w.writerow([r["id"], f"{price(r):.2f}"])
PY
