#!/usr/bin/env python3
"""Monthly sales report for the shop database.

    python3 report.py DB

Prints four sections: monthly totals, top customers, revenue by category and month, and cohort
repeat rates. All money is in integer cents; all months are UTC calendar months (YYYY-MM).
"""
import sqlite3
import sys
from datetime import datetime, timezone


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


def order_cents(con, order_id):
    total = 0
    for qty, price, disc in con.execute("SELECT qty, unit_price, discount_pct FROM order_items WHERE order_id = ?",
                                        (order_id,)):
        total += line_cents(qty, price, disc)
    return total


def main():
    con = sqlite3.connect(sys.argv[1])
    orders = con.execute("SELECT id, customer_id, placed_at, status FROM orders ORDER BY id").fetchall()
    live = [o for o in orders if o[3] != "cancelled"]
    months = sorted({month_of(o[2]) for o in live})

    print("== monthly")
    print("month,orders,gross_cents,refund_cents,net_cents")
    for month in months:
        n = gross = 0
        for oid, cid, placed, status in con.execute("SELECT id, customer_id, placed_at, status FROM orders"):
            if status == "cancelled" or month_of(placed) != month:
                continue
            n += 1
            gross += order_cents(con, oid)
        refunds = 0
        for order_id, amount, at in con.execute("SELECT order_id, amount_cents, refunded_at FROM refunds"):
            st = con.execute("SELECT status FROM orders WHERE id = ?", (order_id,)).fetchone()
            if st and st[0] != "cancelled" and month_of(at) == month:
                refunds += amount
        print(f"{month},{n},{gross},{refunds},{gross - refunds}")

    print("== top customers")
    print("rank,customer_id,name,orders,net_cents")
    rows = []
    for cid, name in con.execute("SELECT id, name FROM customers"):
        mine = [o for o in con.execute("SELECT id, status FROM orders WHERE customer_id = ?", (cid,)) if o[1] != "cancelled"]
        if not mine:
            continue
        net = 0
        for oid, _ in mine:
            net += order_cents(con, oid)
            for (amount,) in con.execute("SELECT amount_cents FROM refunds WHERE order_id = ?", (oid,)):
                net -= amount
        rows.append((-net, (name or "(unknown)").casefold(), cid, name or "(unknown)", len(mine), net))
    rows.sort()
    for rank, (_, _, cid, name, n, net) in enumerate(rows[:10], start=1):
        print(f"{rank},{cid},{name},{n},{net}")

    print("== categories")
    print("month,category,items,revenue_cents")
    cats = {}
    for oid, cid, placed, status in live:
        m = month_of(placed)
        for pid, qty, price, disc in con.execute(
                "SELECT product_id, qty, unit_price, discount_pct FROM order_items WHERE order_id = ?", (oid,)):
            prod = con.execute("SELECT category FROM products WHERE id = ?", (pid,)).fetchone()
            key = (m, category_key(prod[0] if prod else None))
            items, cents = cats.get(key, (0, 0))
            cats[key] = (items + qty, cents + line_cents(qty, price, disc))
    for (m, cat), (items, cents) in sorted(cats.items()):
        print(f"{m},{cat},{items},{cents}")

    print("== cohorts")
    print("cohort,customers,month_1,month_2,month_3")
    first = {}
    for oid, cid, placed, status in live:
        m = month_of(placed)
        if cid not in first or m < first[cid]:
            first[cid] = m
    for cohort in sorted(set(first.values())):
        members = [c for c in first if first[c] == cohort]
        counts = []
        for k in (1, 2, 3):
            target = add_months(cohort, k)
            counts.append(sum(1 for c in members if any(o[1] == c and month_of(o[2]) == target for o in live)))
        print(f"{cohort},{len(members)},{counts[0]},{counts[1]},{counts[2]}")


if __name__ == "__main__":
    main()
