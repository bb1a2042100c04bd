#!/bin/bash
# Mistake: the marker row is written with INSERT OR IGNORE inside a trigger fired by the upsert on txn_sums; the
# firing statement's conflict handling wins over OR IGNORE, so multi-row changes to one transaction fail on UNIQUE.
set -e
cat > /app/ledger/constraints.sql <<'SQL'
-- Commit-time balance: txn_sums holds the sum of every txn_id's entries; ledger_unbalanced holds one row per
-- txn_id whose sum is not zero, and its deferred foreign key to the always-empty ledger_never makes COMMIT fail
-- while any such row exists.
CREATE TABLE ledger_never (id INTEGER PRIMARY KEY);
CREATE TABLE ledger_unbalanced (
  txn_id INTEGER PRIMARY KEY REFERENCES ledger_never(id) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE txn_sums (txn_id INTEGER PRIMARY KEY, total INTEGER NOT NULL);
INSERT INTO txn_sums (txn_id, total) SELECT txn_id, sum(amount_cents) FROM entries GROUP BY txn_id;

CREATE TRIGGER ledger_no_zero_insert BEFORE INSERT ON entries WHEN NEW.amount_cents = 0 BEGIN
  SELECT RAISE(ABORT, 'amount_cents must not be zero');
END;
CREATE TRIGGER ledger_no_zero_update BEFORE UPDATE OF amount_cents ON entries WHEN NEW.amount_cents = 0 BEGIN
  SELECT RAISE(ABORT, 'amount_cents must not be zero');
END;

CREATE TRIGGER ledger_sum_insert AFTER INSERT ON entries BEGIN
  INSERT INTO txn_sums (txn_id, total) VALUES (NEW.txn_id, NEW.amount_cents)
    ON CONFLICT (txn_id) DO UPDATE SET total = total + excluded.total;
END;
CREATE TRIGGER ledger_sum_delete AFTER DELETE ON entries BEGIN
  UPDATE txn_sums SET total = total - OLD.amount_cents WHERE txn_id = OLD.txn_id;
END;
CREATE TRIGGER ledger_sum_update AFTER UPDATE OF txn_id, amount_cents ON entries BEGIN
  UPDATE txn_sums SET total = total - OLD.amount_cents WHERE txn_id = OLD.txn_id;
  INSERT INTO txn_sums (txn_id, total) VALUES (NEW.txn_id, NEW.amount_cents)
    ON CONFLICT (txn_id) DO UPDATE SET total = total + excluded.total;
END;

CREATE TRIGGER ledger_mark_insert AFTER INSERT ON txn_sums BEGIN
  INSERT OR IGNORE INTO ledger_unbalanced (txn_id) SELECT NEW.txn_id WHERE NEW.total <> 0;
END;
CREATE TRIGGER ledger_mark_update AFTER UPDATE OF total ON txn_sums BEGIN
  DELETE FROM ledger_unbalanced WHERE txn_id = NEW.txn_id AND NEW.total = 0;
  INSERT OR IGNORE INTO ledger_unbalanced (txn_id) SELECT NEW.txn_id WHERE NEW.total <> 0;
END;
SQL
