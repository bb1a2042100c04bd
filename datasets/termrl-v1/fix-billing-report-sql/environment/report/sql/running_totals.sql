-- Each account's invoices in order, with the running total of what it has been invoiced.
SELECT i.account_id, i.id AS invoice_id, i.issued_at,
       (i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100 AS net_cents,
       sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100)
         OVER (PARTITION BY i.account_id ORDER BY i.issued_at) AS running_cents
FROM invoices i
WHERE i.status <> 'void'
ORDER BY i.account_id, i.issued_at, i.id;
