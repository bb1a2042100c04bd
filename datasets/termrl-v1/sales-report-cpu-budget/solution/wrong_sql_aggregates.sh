#!/bin/bash
# Mistake: the report is rewritten as SQL aggregates; fast, but SQL month slicing ignores UTC offsets, SQL ROUND rounds
# half-cents differently from Python, and lower() only folds ASCII.
set -e
cat > /app/report.py <<'PYEOF'
#!/usr/bin/env python3
"""Monthly sales report for the shop database, computed in SQL."""
import sqlite3
import sys

LINE = "ROUND(i.qty * CAST(i.unit_price AS REAL) * 100 * (100 - IFNULL(i.discount_pct, 0)) / 100)"


def add_months(month, k):
    y, m = map(int, month.split("-"))
    m += k
    y += (m - 1) // 12
    m = (m - 1) % 12 + 1
    return f"{y:04d}-{m:02d}"


def main():
    con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
    con.executescript(f"""
        CREATE TEMP TABLE lo AS SELECT id, customer_id, substr(placed_at, 1, 7) AS month FROM orders
            WHERE status IS NULL OR status != 'cancelled';
        CREATE TEMP TABLE oc AS SELECT order_id, SUM(CAST({LINE} AS INTEGER)) AS cents FROM order_items i GROUP BY order_id;
        CREATE INDEX temp.oc_id ON oc (order_id);
    """)
    print("== monthly")
    print("month,orders,gross_cents,refund_cents,net_cents")
    for m, n, gross in con.execute("SELECT month, COUNT(*), IFNULL(SUM(oc.cents), 0) FROM lo LEFT JOIN oc ON oc.order_id = lo.id "
                                   "GROUP BY month ORDER BY month").fetchall():
        (ref,) = con.execute("SELECT IFNULL(SUM(r.amount_cents), 0) FROM refunds r JOIN orders o ON o.id = r.order_id "
                             "WHERE (o.status IS NULL OR o.status != 'cancelled') AND substr(r.refunded_at, 1, 7) = ?", (m,)).fetchone()
        print(f"{m},{n},{gross},{ref},{gross - ref}")
    print("== top customers")
    print("rank,customer_id,name,orders,net_cents")
    rows = con.execute("""
        SELECT c.id, IFNULL(c.name, '(unknown)') AS nm, COUNT(*),
               SUM(IFNULL(oc.cents, 0) - IFNULL((SELECT SUM(amount_cents) FROM refunds r WHERE r.order_id = lo.id), 0)) AS net
        FROM customers c JOIN lo ON lo.customer_id = c.id LEFT JOIN oc ON oc.order_id = lo.id
        GROUP BY c.id ORDER BY net DESC, lower(nm), c.id LIMIT 10""").fetchall()
    for rank, (cid, name, n, net) in enumerate(rows, start=1):
        print(f"{rank},{cid},{name},{n},{net}")
    print("== categories")
    print("month,category,items,revenue_cents")
    for m, cat, n, c in con.execute(f"""
        SELECT lo.month, CASE WHEN trim(IFNULL(p.category, '')) = '' THEN 'uncategorized' ELSE lower(trim(p.category)) END AS cat,
               SUM(i.qty), SUM(CAST({LINE} AS INTEGER))
        FROM lo JOIN order_items i ON i.order_id = lo.id LEFT JOIN products p ON p.id = i.product_id
        GROUP BY 1, 2 ORDER BY 1, 2"""):
        print(f"{m},{cat},{n},{c}")
    print("== cohorts")
    print("cohort,customers,month_1,month_2,month_3")
    first = dict(con.execute("SELECT customer_id, MIN(month) FROM lo GROUP BY customer_id"))
    active = {}
    for cid, m in con.execute("SELECT DISTINCT customer_id, month FROM lo"):
        active.setdefault(cid, set()).add(m)
    for cohort in sorted(set(first.values())):
        mem = [c for c in first if first[c] == cohort]
        counts = [sum(1 for c in mem if add_months(cohort, k) in active[c]) for k in (1, 2, 3)]
        print(f"{cohort},{len(mem)},{counts[0]},{counts[1]},{counts[2]}")


if __name__ == "__main__":
    main()
PYEOF
