-- Q1 recent_open_orders: the customer's newest open orders
SELECT id, total_cents, created_at FROM orders
WHERE customer_id = :cust AND status = 'open'
ORDER BY created_at DESC LIMIT 20;

-- Q2 customer_by_email: log-in lookup, e-mail addresses are case-insensitive
SELECT id, name FROM customers WHERE lower(email) = lower(:email);

-- Q3 sku_search: the catalogue's "SKU starts with" search box (:pattern is a SKU prefix of 5 or more characters, then %, e.g. 'kit-12%')
SELECT sku, title, price_cents FROM products WHERE sku LIKE :pattern;

-- Q4 shipping_backlog: paid orders that have not shipped yet, oldest first
SELECT id, customer_id, created_at FROM orders
WHERE status = 'paid' AND shipped_at IS NULL
ORDER BY created_at LIMIT 50;

-- Q5 events_per_kind: activity of one calendar day (:day is 'YYYY-MM-DD')
SELECT kind, count(*) FROM events WHERE date(ts) = :day GROUP BY kind;

-- Q6 support_lookup: orders of a customer, or orders that contain a product
SELECT id FROM orders
WHERE customer_id = :cust OR id IN (SELECT order_id FROM order_items WHERE sku = :sku);

-- Q7 newest_in_region: the newest sign-ups of a region
SELECT id, email FROM customers WHERE region = :region
ORDER BY created_at DESC, id DESC LIMIT 10;
