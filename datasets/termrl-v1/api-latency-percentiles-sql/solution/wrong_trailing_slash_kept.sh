#!/bin/bash
# Mistake: empty segments are kept, so '/users/1/orders/' and '/users/1/orders' become two routes.
set -e
cat > /app/latency.sql <<'SQL'
WITH RECURSIVE
base AS (
  SELECT id,
         lower(CASE WHEN instr(path, '?') > 0 THEN substr(path, 1, instr(path, '?') - 1) ELSE path END) AS p,
         substr(started_at, 1, 13) || ':00' AS hour, duration_ms, status
  FROM requests
),
split(id, idx, seg, rest) AS (
  SELECT id, 0, NULL, substr(p, 2) || '/' FROM base
  UNION ALL
  SELECT id, idx + 1, substr(rest, 1, instr(rest, '/') - 1), substr(rest, instr(rest, '/') + 1)
  FROM split WHERE rest <> ''
),
segs AS (
  SELECT id, idx, CASE WHEN seg NOT GLOB '*[^0-9]*' THEN ':id' ELSE seg END AS seg
  FROM split WHERE idx > 0
),
joined_segs AS (
  SELECT id, group_concat(seg, '/') AS tail FROM (SELECT id, idx, seg FROM segs ORDER BY id, idx) GROUP BY id
),
req AS (
  SELECT b.id, '/' || coalesce(j.tail, '') AS route, b.hour, b.duration_ms, b.status
  FROM base b LEFT JOIN joined_segs j ON j.id = b.id
),
ranked AS (
  SELECT route, hour, duration_ms,
         row_number() OVER (PARTITION BY route, hour ORDER BY duration_ms) AS rn,
         count(*) OVER (PARTITION BY route, hour) AS n
  FROM req WHERE duration_ms IS NOT NULL
),
pct AS (
  SELECT route, hour,
         max(CASE WHEN rn = (50 * n + 99) / 100 THEN duration_ms END) AS p50_ms,
         max(CASE WHEN rn = (95 * n + 99) / 100 THEN duration_ms END) AS p95_ms,
         max(CASE WHEN rn = (99 * n + 99) / 100 THEN duration_ms END) AS p99_ms,
         max(duration_ms) AS max_ms
  FROM ranked GROUP BY route, hour
),
counts AS (
  SELECT route, hour, count(*) AS requests,
         sum(CASE WHEN duration_ms IS NULL OR status >= 500 THEN 1 ELSE 0 END) AS errors
  FROM req GROUP BY route, hour
)
SELECT c.route, c.hour, c.requests, c.errors, p.p50_ms, p.p95_ms, p.p99_ms, p.max_ms
FROM counts c LEFT JOIN pct p ON p.route = c.route AND p.hour = c.hour
ORDER BY c.route, c.hour;
SQL
