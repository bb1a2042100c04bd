CREATE TABLE accounts (
    id      INTEGER PRIMARY KEY,
    owner   TEXT NOT NULL,
    balance INTEGER NOT NULL
);
-- the GTID set already applied: one row per source server, intervals like '1-5:7:9-12'
CREATE TABLE _gtid_executed (
    source_uuid TEXT PRIMARY KEY,
    intervals   TEXT NOT NULL
);
