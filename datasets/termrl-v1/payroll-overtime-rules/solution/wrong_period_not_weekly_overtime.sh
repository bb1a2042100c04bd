#!/bin/bash
set -euo pipefail
cat > /app/payroll.py <<'PY'
import csv
import datetime as dt
import json
from decimal import ROUND_HALF_UP, Decimal

STATE = {"CA": Decimal("0.05"), "TX": Decimal("0"), "NY": Decimal("0.06")}
C = Decimal("0.01")


def cents(x):
    return x.quantize(C, ROUND_HALF_UP)


def run(emp_path, ts_path, period_path):
    period = json.load(open(period_path))
    p0, p1 = dt.date.fromisoformat(period["start"]), dt.date.fromisoformat(period["end"])
    emps = {r["emp_id"]: r for r in csv.DictReader(open(emp_path, newline=""))}
    seen = set()
    daily = {}
    for r in csv.DictReader(open(ts_path, newline="")):
        eid = r["emp_id"].strip()
        if eid not in emps:
            continue
        day = dt.date.fromisoformat(r["date"])
        if not p0 <= day <= p1:
            continue
        key = (eid, r["date"], r["clock_in"])
        if key in seen:
            continue
        seen.add(key)
        h1, m1 = map(int, r["clock_in"].split(":"))
        h2, m2 = map(int, r["clock_out"].split(":"))
        mins = (h2 * 60 + m2) - (h1 * 60 + m1)
        if mins <= 0:
            mins += 24 * 60
        if mins > 6 * 60:
            mins -= 30
        q, rem = divmod(mins, 15)
        mins = (q + (1 if rem * 2 >= 15 else 0)) * 15
        daily.setdefault(eid, {}).setdefault(day, 0)
        daily[eid][day] += mins
    out = []
    for eid in sorted(emps):
        e = emps[eid]
        reg = ot = dbl = Decimal(0)
        sunday = Decimal(0)
        if e["type"] == "salaried":
            gross = Decimal(e["annual_salary"]) / 26
        else:
            rate = Decimal(e["hourly_rate"])
            weeks = {}
            for day, mins in daily.get(eid, {}).items():
                h = Decimal(mins) / 60
                d = max(h - 12, Decimal(0))
                dbl += d
                weeks.setdefault(0, Decimal(0))
                weeks[0] += h - d
                if day.weekday() == 6:
                    sunday += h
            for wk, h in weeks.items():
                o = max(h - 40, Decimal(0))
                ot += o
                reg += h - o
            gross = rate * reg + rate * Decimal("1.5") * ot + rate * 2 * dbl + 2 * sunday
        g = cents(gross)
        fed = cents(g * Decimal("0.12"))
        st = cents(g * STATE[e["state"]])
        out.append([eid, f"{reg:.2f}", f"{ot:.2f}", f"{dbl:.2f}", f"{g:.2f}", f"{fed:.2f}", f"{st:.2f}", f"{g - fed - st:.2f}"])
    return out


if __name__ == "__main__":
    import sys
    rows = run(sys.argv[1], sys.argv[2], sys.argv[3])
    with open(sys.argv[4], "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["emp_id", "regular_hours", "overtime_hours", "double_hours", "gross", "federal_tax", "state_tax", "net"])
        w.writerows(rows)
PY
