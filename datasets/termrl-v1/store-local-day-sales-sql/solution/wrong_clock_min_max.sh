#!/bin/bash
# Mistake: first and last sale are the smallest and largest local clock times of the day; when clocks go back,
# the latest sale can show an earlier clock time.
set -e
cat > /app/daily_sales.sql <<'SQL'
WITH s AS (
  SELECT sa.store_id, sa.amount_cents, datetime(sa.sold_at) AS utc,
         (SELECT r.offset_min FROM tz_rules r
           WHERE r.zone = st.zone AND r.from_utc <= datetime(sa.sold_at)
           ORDER BY r.from_utc DESC LIMIT 1) AS off
  FROM sales sa JOIN stores st ON st.id = sa.store_id
  WHERE sa.refunded = 0
), d AS (
  SELECT store_id, amount_cents, utc, off,
         datetime(utc, off || ' minutes') AS local,
         date(utc, off || ' minutes') AS local_date
  FROM s
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY store_id, local_date ORDER BY utc) AS first_rank,
            row_number() OVER (PARTITION BY store_id, local_date ORDER BY utc DESC) AS last_rank
  FROM d
), offs AS (
  SELECT store_id, local_date,
         group_concat(printf('%s%02d:%02d', CASE WHEN off < 0 THEN '-' ELSE '+' END, abs(off) / 60, abs(off) % 60), ';') AS offsets
  FROM (SELECT DISTINCT store_id, local_date, off FROM d ORDER BY store_id, local_date, off)
  GROUP BY store_id, local_date
)
SELECT r.store_id, r.local_date, count(*) AS sales, sum(r.amount_cents) AS amount_cents,
       min(time(r.local)) AS first_sale,
       max(time(r.local)) AS last_sale,
       o.offsets
FROM ranked r JOIN offs o ON o.store_id = r.store_id AND o.local_date = r.local_date
GROUP BY r.store_id, r.local_date
ORDER BY r.store_id, r.local_date;
SQL
