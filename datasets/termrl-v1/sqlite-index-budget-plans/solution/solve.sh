#!/bin/bash
# Reference: one index per access path, with the planner's rules in mind: the expressions lower(email) and
# date(ts) indexed exactly as the queries write them, a NOCASE index so LIKE 'prefix%' can use a range,
# a partial index for the backlog, (region, created_at) sorted by rowid as the last key for the id tie-break,
# and the (customer_id, ...) index shared by Q1 and Q6: seven in all.
set -e
cat > /app/indexes.sql <<'SQL'
CREATE INDEX orders_cust_status_created ON orders(customer_id, status, created_at);
CREATE INDEX customers_email_lower ON customers(lower(email));
CREATE INDEX products_sku_nocase ON products(sku COLLATE NOCASE);
CREATE INDEX orders_backlog ON orders(created_at) WHERE status = 'paid' AND shipped_at IS NULL;
CREATE INDEX events_day_kind ON events(date(ts), kind);
CREATE INDEX order_items_sku ON order_items(sku);
CREATE INDEX customers_region_created ON customers(region, created_at);
SQL
