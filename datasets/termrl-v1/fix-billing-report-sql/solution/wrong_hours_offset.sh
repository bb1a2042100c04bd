#!/bin/bash
# Mistake: everything fixed except the local day, still shifted by whole hours (tz_offset_min / 60): wrong for
# UTC+05:30, +05:45, -03:30 accounts near midnight.
set -e
cd /app/report/sql
cat > daily_revenue.sql <<'SQL'
-- Paid revenue per local calendar day (the account's own day).
SELECT date(i.issued_at, (a.tz_offset_min / 60) || ' hours') AS day,
       count(*) AS invoices,
       sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100) AS net_cents
FROM invoices i JOIN accounts a ON a.id = i.account_id
WHERE i.status = 'paid'
GROUP BY day
ORDER BY day;
SQL
cat > balances.sql <<'SQL'
-- What every account was invoiced, what it paid, and what it still owes.
WITH inv AS (
  SELECT id, account_id, (amount_cents * (100 - coalesce(discount_pct, 0)) + 50) / 100 AS net_cents
  FROM invoices WHERE status <> 'void'
), pay AS (
  SELECT invoice_id, sum(amount_cents) AS paid_cents FROM payments GROUP BY invoice_id
), per_account AS (
  SELECT a.id, a.name,
         coalesce(sum(inv.net_cents), 0) AS invoiced_cents,
         coalesce(sum(pay.paid_cents), 0) AS paid_cents
  FROM accounts a
  LEFT JOIN inv ON inv.account_id = a.id
  LEFT JOIN pay ON pay.invoice_id = inv.id
  GROUP BY a.id
)
SELECT id AS account_id, name, invoiced_cents, paid_cents, invoiced_cents - paid_cents AS balance_cents
FROM per_account
ORDER BY balance_cents DESC, account_id;
SQL
cat > running_totals.sql <<'SQL'
-- Each account's invoices in order, with the running total of what it has been invoiced.
SELECT i.account_id, i.id AS invoice_id, i.issued_at,
       (i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100 AS net_cents,
       sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100)
         OVER (PARTITION BY i.account_id ORDER BY i.issued_at, i.id
               ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_cents
FROM invoices i
WHERE i.status <> 'void'
ORDER BY i.account_id, i.issued_at, i.id;
SQL
cat > top_by_country.sql <<'SQL'
-- The three best accounts of every country by paid revenue.
WITH rev AS (
  SELECT a.id, coalesce(nullif(a.country, ''), '??') AS country,
         sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100) AS revenue_cents
  FROM accounts a JOIN invoices i ON i.account_id = a.id
  WHERE i.status = 'paid'
  GROUP BY a.id
), ranked AS (
  SELECT country, id, revenue_cents,
         dense_rank() OVER (PARTITION BY country ORDER BY revenue_cents DESC) AS rank
  FROM rev
)
SELECT country, id AS account_id, revenue_cents, rank
FROM ranked WHERE rank <= 3
ORDER BY country, rank, account_id;
SQL
cat > never_referred.sql <<'SQL'
-- Accounts that have not referred anybody (for the referral campaign).
SELECT a.id AS account_id, a.name
FROM accounts a
WHERE NOT EXISTS (SELECT 1 FROM accounts r WHERE r.referred_by = a.id)
ORDER BY a.id;
SQL
