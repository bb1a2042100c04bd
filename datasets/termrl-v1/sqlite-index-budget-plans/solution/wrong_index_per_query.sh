#!/bin/bash
# Mistake: every plan is right, but the OR query gets its own orders(customer_id) index instead of sharing the
# (customer_id, status, created_at) one: eight indexes, over the budget of seven.
set -e
cat > /app/indexes.sql <<'SQL'
CREATE INDEX orders_cust_status_created ON orders(customer_id, status, created_at);
CREATE INDEX customers_email_lower ON customers(lower(email));
CREATE INDEX products_sku_nocase ON products(sku COLLATE NOCASE);
CREATE INDEX orders_backlog ON orders(status, shipped_at, created_at);
CREATE INDEX events_day_kind ON events(date(ts), kind);
CREATE INDEX order_items_sku ON order_items(sku);
CREATE INDEX orders_customer ON orders(customer_id);
CREATE INDEX customers_region_created ON customers(region, created_at);
SQL
