#!/bin/bash
# Reference: read each table once, aggregate in Python with the original helper functions (memoised month parsing).
set -e
cat > /app/report.py <<'PYEOF'
#!/usr/bin/env python3
"""Monthly sales report for the shop database (same output as before, one pass over each table).

    python3 report.py DB
"""
import sqlite3
import sys
from collections import defaultdict
from datetime import datetime, timezone
from functools import lru_cache


@lru_cache(maxsize=None)
def month_of(ts):
    """UTC month of an ISO-8601 timestamp; timestamps without an offset are UTC."""
    dt = datetime.fromisoformat(ts.strip().replace("Z", "+00:00"))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    dt = dt.astimezone(timezone.utc)
    return f"{dt.year:04d}-{dt.month:02d}"


def add_months(month, k):
    y, m = map(int, month.split("-"))
    m += k
    y += (m - 1) // 12
    m = (m - 1) % 12 + 1
    return f"{y:04d}-{m:02d}"


def line_cents(qty, unit_price, discount_pct):
    return round(qty * float(unit_price) * 100 * (100 - (discount_pct or 0)) / 100)


def category_key(cat):
    cat = (cat or "").strip()
    return cat.casefold() if cat else "uncategorized"


def main():
    con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
    orders = con.execute("SELECT id, customer_id, placed_at, status FROM orders ORDER BY id").fetchall()
    status_of = {o[0]: o[3] for o in orders}
    live = [o for o in orders if o[3] != "cancelled"]
    month = {o[0]: month_of(o[2]) for o in live}
    months = sorted(set(month.values()))

    items = defaultdict(list)
    for oid, pid, qty, price, disc in con.execute(
            "SELECT order_id, product_id, qty, unit_price, discount_pct FROM order_items"):
        items[oid].append((pid, qty, line_cents(qty, price, disc)))
    cents = {oid: sum(c for _, _, c in lines) for oid, lines in items.items()}
    refunds = con.execute("SELECT order_id, amount_cents, refunded_at FROM refunds").fetchall()
    category = dict(con.execute("SELECT id, category FROM products"))

    print("== monthly")
    print("month,orders,gross_cents,refund_cents,net_cents")
    n_by, gross_by, refund_by = defaultdict(int), defaultdict(int), defaultdict(int)
    for o in live:
        n_by[month[o[0]]] += 1
        gross_by[month[o[0]]] += cents.get(o[0], 0)
    for order_id, amount, at in refunds:
        if order_id in status_of and status_of[order_id] != "cancelled":
            refund_by[month_of(at)] += amount
    for m in months:
        print(f"{m},{n_by[m]},{gross_by[m]},{refund_by[m]},{gross_by[m] - refund_by[m]}")

    print("== top customers")
    print("rank,customer_id,name,orders,net_cents")
    refunded = defaultdict(int)
    for order_id, amount, _ in refunds:
        refunded[order_id] += amount
    per_customer = defaultdict(lambda: [0, 0])
    for oid, cid, _, _ in live:
        acc = per_customer[cid]
        acc[0] += 1
        acc[1] += cents.get(oid, 0) - refunded.get(oid, 0)
    rows = []
    for cid, name in con.execute("SELECT id, name FROM customers"):
        if cid not in per_customer:
            continue
        n, net = per_customer[cid]
        shown = name or "(unknown)"
        rows.append((-net, shown.casefold(), cid, shown, n, net))
    rows.sort()
    for rank, (_, _, cid, name, n, net) in enumerate(rows[:10], start=1):
        print(f"{rank},{cid},{name},{n},{net}")

    print("== categories")
    print("month,category,items,revenue_cents")
    cats = defaultdict(lambda: [0, 0])
    for oid, _, _, _ in live:
        m = month[oid]
        for pid, qty, c in items.get(oid, ()):
            acc = cats[(m, category_key(category.get(pid)))]
            acc[0] += qty
            acc[1] += c
    for (m, cat), (n, c) in sorted(cats.items()):
        print(f"{m},{cat},{n},{c}")

    print("== cohorts")
    print("cohort,customers,month_1,month_2,month_3")
    first = {}
    active = defaultdict(set)
    for oid, cid, _, _ in live:
        m = month[oid]
        active[cid].add(m)
        if cid not in first or m < first[cid]:
            first[cid] = m
    members = defaultdict(list)
    for c, m in first.items():
        members[m].append(c)
    for cohort in sorted(members):
        mem = members[cohort]
        counts = [sum(1 for c in mem if add_months(cohort, k) in active[c]) for k in (1, 2, 3)]
        print(f"{cohort},{len(mem)},{counts[0]},{counts[1]},{counts[2]}")


if __name__ == "__main__":
    main()
PYEOF
