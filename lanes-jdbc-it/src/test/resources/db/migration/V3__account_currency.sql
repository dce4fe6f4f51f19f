ALTER TABLE accounts ADD COLUMN currency TEXT NOT NULL DEFAULT 'EUR';
UPDATE accounts SET currency = 'USD' WHERE owner = 'grace';
