#!/bin/bash
# Reference: gaps and islands with a running maximum of the end dates seen so far, open ends mapped to a
# sentinel date before max() (which would skip NULLs), a new period whenever a start lies beyond that maximum
# (touching ranges merge), then per-period aggregates, days capped at as_of and the gap from lag().
set -e
cat > /app/coverage.sql <<'SQL'
WITH s AS (
  SELECT sub.customer_id, sub.start_date, coalesce(sub.end_date, '9999-12-31') AS end_key
  FROM subscriptions sub, report_settings rs
  WHERE (sub.end_date IS NULL OR sub.end_date > sub.start_date) AND sub.start_date <= rs.as_of
), o AS (
  SELECT *, max(end_key) OVER (PARTITION BY customer_id ORDER BY start_date, end_key
                               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end
  FROM s
), g AS (
  SELECT *, sum(CASE WHEN prev_end IS NULL OR start_date > prev_end THEN 1 ELSE 0 END)
              OVER (PARTITION BY customer_id ORDER BY start_date, end_key ROWS UNBOUNDED PRECEDING) AS period_no
  FROM o
), p AS (
  SELECT customer_id, period_no, min(start_date) AS period_start, max(end_key) AS end_key, count(*) AS subscriptions
  FROM g GROUP BY customer_id, period_no
)
SELECT p.customer_id, p.period_no, p.period_start,
       CASE WHEN p.end_key = '9999-12-31' THEN NULL ELSE p.end_key END AS period_end,
       p.subscriptions,
       CAST(round(julianday(min(p.end_key, rs.as_of)) - julianday(p.period_start)) AS INTEGER) AS days,
       CAST(round(julianday(p.period_start)
                  - julianday(lag(p.end_key) OVER (PARTITION BY p.customer_id ORDER BY p.period_no))) AS INTEGER) AS gap_days
FROM p, report_settings rs
ORDER BY p.customer_id, p.period_no;
SQL
