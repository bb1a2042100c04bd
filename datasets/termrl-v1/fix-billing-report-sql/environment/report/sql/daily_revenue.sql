-- Paid revenue per local calendar day (the account's own day).
SELECT date(i.issued_at, (a.tz_offset_min / 60) || ' hours') AS day,
       count(*) AS invoices,
       sum(i.amount_cents * (100 - i.discount_pct) / 100) AS net_cents
FROM invoices i JOIN accounts a ON a.id = i.account_id
WHERE i.status = 'paid'
GROUP BY day
ORDER BY day;
