#!/bin/bash
# Mistake: the day query gets an index on date(ts) alone: the lookup is indexed, but GROUP BY kind then needs
# a temporary b-tree.
set -e
cat > /app/indexes.sql <<'SQL'
CREATE INDEX orders_cust_status_created ON orders(customer_id, status, created_at);
CREATE INDEX customers_email_lower ON customers(lower(email));
CREATE INDEX products_sku_nocase ON products(sku COLLATE NOCASE);
CREATE INDEX orders_backlog ON orders(created_at) WHERE status = 'paid' AND shipped_at IS NULL;
CREATE INDEX events_day ON events(date(ts));
CREATE INDEX order_items_sku ON order_items(sku);
CREATE INDEX customers_region_created ON customers(region, created_at);
SQL
