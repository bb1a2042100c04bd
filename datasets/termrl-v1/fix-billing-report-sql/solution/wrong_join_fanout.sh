#!/bin/bash
# Mistake: the void filter moved into the join (accounts without invoices come back), but payments are still
# joined row by row, so an invoice with several payments is counted several times.
set -e
cd /app/report/sql
cat > daily_revenue.sql <<'SQL'
-- Paid revenue per local calendar day (the account's own day).
SELECT date(i.issued_at, a.tz_offset_min || ' minutes') AS day,
       count(*) AS invoices,
       sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100) AS net_cents
FROM invoices i JOIN accounts a ON a.id = i.account_id
WHERE i.status = 'paid'
GROUP BY day
ORDER BY day;
SQL
cat > balances.sql <<'SQL'
SELECT a.id AS account_id, a.name,
       coalesce(sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100), 0) AS invoiced_cents,
       coalesce(sum(p.amount_cents), 0) AS paid_cents,
       coalesce(sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100), 0)
         - coalesce(sum(p.amount_cents), 0) AS balance_cents
FROM accounts a
LEFT JOIN invoices i ON i.account_id = a.id AND i.status <> 'void'
LEFT JOIN payments p ON p.invoice_id = i.id
GROUP BY a.id
ORDER BY balance_cents DESC, a.id;
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
