#!/bin/bash
# Mistake: the balance is checked by triggers right after every write; a real transaction is written entry by
# entry, so the first entry of every transaction is already rejected.
set -e
cat > /app/ledger/constraints.sql <<'SQL'
CREATE TRIGGER ledger_no_zero_insert BEFORE INSERT ON entries WHEN NEW.amount_cents = 0 BEGIN
  SELECT RAISE(ABORT, 'amount_cents must not be zero');
END;
CREATE TRIGGER ledger_no_zero_update BEFORE UPDATE OF amount_cents ON entries WHEN NEW.amount_cents = 0 BEGIN
  SELECT RAISE(ABORT, 'amount_cents must not be zero');
END;
CREATE TRIGGER ledger_balance_insert AFTER INSERT ON entries
WHEN (SELECT sum(amount_cents) FROM entries WHERE txn_id = NEW.txn_id) <> 0 BEGIN
  SELECT RAISE(ABORT, 'unbalanced transaction');
END;
CREATE TRIGGER ledger_balance_update AFTER UPDATE ON entries
WHEN (SELECT sum(amount_cents) FROM entries WHERE txn_id = NEW.txn_id) <> 0
  OR coalesce((SELECT sum(amount_cents) FROM entries WHERE txn_id = OLD.txn_id), 0) <> 0 BEGIN
  SELECT RAISE(ABORT, 'unbalanced transaction');
END;
CREATE TRIGGER ledger_balance_delete AFTER DELETE ON entries
WHEN coalesce((SELECT sum(amount_cents) FROM entries WHERE txn_id = OLD.txn_id), 0) <> 0 BEGIN
  SELECT RAISE(ABORT, 'unbalanced transaction');
END;
SQL
