DROP TRIGGER orders_touch;
DROP TABLE orders;
