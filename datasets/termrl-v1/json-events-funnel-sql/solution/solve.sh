#!/bin/bash
# Reference: filter json_valid() first (json_each aborts the whole statement on one malformed payload), pick
# the item array by event type, normalise SKU and quantity, convert prices (number or text) to cents with
# round(), and aggregate distinct users per step.
set -e
cat > /app/funnel.sql <<'SQL'
WITH ev AS (
  SELECT user_id, lower(json_extract(payload, '$.type')) AS type, payload
  FROM events
  WHERE json_valid(payload)
), items AS (
  SELECT ev.user_id, ev.type,
         upper(trim(json_extract(j.value, '$.sku'))) AS sku,
         coalesce(json_extract(j.value, '$.qty'), 1) AS qty,
         CAST(round(json_extract(j.value, '$.price') * 100) AS INTEGER) AS price_cents
  FROM ev, json_each(ev.payload, CASE WHEN ev.type = 'purchase' THEN '$.order.items' ELSE '$.items' END) AS j
  WHERE ev.type IN ('view', 'cart', 'purchase')
), agg AS (
  SELECT sku,
         count(DISTINCT CASE WHEN type = 'view' THEN user_id END) AS viewed_users,
         count(DISTINCT CASE WHEN type = 'cart' THEN user_id END) AS carted_users,
         count(DISTINCT CASE WHEN type = 'purchase' THEN user_id END) AS buyers,
         sum(CASE WHEN type = 'purchase' THEN qty ELSE 0 END) AS units_sold,
         sum(CASE WHEN type = 'purchase' THEN qty * price_cents ELSE 0 END) AS revenue_cents
  FROM items GROUP BY sku
)
SELECT sku, viewed_users, carted_users, buyers, units_sold, revenue_cents,
       CASE WHEN viewed_users = 0 THEN NULL ELSE printf('%.1f', round(100.0 * buyers / viewed_users, 1)) END AS conversion_pct
FROM agg
ORDER BY sku;
SQL
