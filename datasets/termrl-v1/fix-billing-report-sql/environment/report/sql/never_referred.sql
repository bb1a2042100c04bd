-- Accounts that have not referred anybody (for the referral campaign).
SELECT id AS account_id, name
FROM accounts
WHERE id NOT IN (SELECT referred_by FROM accounts)
ORDER BY id;
