#!/bin/bash
# Mistake: indexes on the bare columns. lower(email) and date(ts) cannot use them, and LIKE cannot use the
# BINARY-collated sku index (LIKE is case-insensitive), so three queries still scan their tables.
set -e
cat > /app/indexes.sql <<'SQL'
CREATE INDEX orders_cust_status_created ON orders(customer_id, status, created_at);
CREATE INDEX customers_email ON customers(email);
CREATE INDEX products_sku ON products(sku);
CREATE INDEX orders_status_shipped_created ON orders(status, shipped_at, created_at);
CREATE INDEX events_ts_kind ON events(ts, kind);
CREATE INDEX order_items_sku ON order_items(sku);
CREATE INDEX customers_region_created ON customers(region, created_at);
SQL
