-- bitemporal price history, one row per (valid-time interval x transaction-time interval) rectangle
CREATE TABLE price_bt (
    sku           TEXT    NOT NULL,
    valid_from    TEXT    NOT NULL,  -- 'YYYY-MM-DD', inclusive
    valid_to      TEXT,              -- 'YYYY-MM-DD', exclusive; NULL = open-ended
    price_cents   INTEGER NOT NULL,
    recorded_at   TEXT    NOT NULL,  -- 'YYYY-MM-DDTHH:MM:SSZ' (UTC), inclusive
    superseded_at TEXT               -- 'YYYY-MM-DDTHH:MM:SSZ' (UTC), exclusive; NULL = still current
);
CREATE INDEX price_bt_sku ON price_bt (sku);
