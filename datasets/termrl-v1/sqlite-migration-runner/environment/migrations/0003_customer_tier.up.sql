ALTER TABLE customers ADD COLUMN tier TEXT NOT NULL DEFAULT 'basic';
UPDATE customers SET tier = 'gold' WHERE email LIKE '%@example.org';
