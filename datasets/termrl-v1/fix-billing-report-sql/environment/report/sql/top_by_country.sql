-- The three best accounts of every country by paid revenue.
WITH rev AS (
  SELECT a.id, a.country,
         sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100) AS revenue_cents
  FROM accounts a JOIN invoices i ON i.account_id = a.id
  WHERE i.status = 'paid' AND a.country != ''
  GROUP BY a.id
), ranked AS (
  SELECT country, id, revenue_cents,
         row_number() OVER (PARTITION BY country ORDER BY revenue_cents DESC) AS rank
  FROM rev
)
SELECT country, id AS account_id, revenue_cents, rank
FROM ranked WHERE rank <= 3
ORDER BY country, rank, account_id;
