-- What every account was invoiced, what it paid, and what it still owes.
SELECT a.id AS account_id, a.name,
       coalesce(sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100), 0) AS invoiced_cents,
       coalesce(sum(p.amount_cents), 0) AS paid_cents,
       coalesce(sum((i.amount_cents * (100 - coalesce(i.discount_pct, 0)) + 50) / 100), 0)
         - coalesce(sum(p.amount_cents), 0) AS balance_cents
FROM accounts a
LEFT JOIN invoices i ON i.account_id = a.id
LEFT JOIN payments p ON p.invoice_id = i.id
WHERE i.status <> 'void'
GROUP BY a.id
ORDER BY balance_cents DESC, a.id;
