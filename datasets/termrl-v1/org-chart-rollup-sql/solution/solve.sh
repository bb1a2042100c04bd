#!/bin/bash
# Reference: walk DOWN from the tops (NULL or unknown manager), so loops and everything below them are never
# reached (walking up from each employee would not terminate on a loop); an ancestor/descendant closure over
# the reached tree gives the transitive counts and salary totals; unreached employees are detached.
set -e
cat > /app/rollup.sql <<'SQL'
WITH RECURSIVE
tops AS (
  SELECT e.id FROM employees e
  WHERE e.manager_id IS NULL OR NOT EXISTS (SELECT 1 FROM employees m WHERE m.id = e.manager_id)
),
tree(id, depth, chain) AS (
  SELECT e.id, 0, e.name FROM employees e JOIN tops t ON t.id = e.id
  UNION ALL
  SELECT c.id, tree.depth + 1, tree.chain || ' > ' || c.name
  FROM employees c JOIN tree ON c.manager_id = tree.id
),
closure(anc, descendant) AS (
  SELECT id, id FROM tree
  UNION ALL
  SELECT closure.anc, c.id FROM closure JOIN employees c ON c.manager_id = closure.descendant
),
totals AS (
  SELECT cl.anc AS id, count(*) - 1 AS total_reports, sum(s.salary_cents) AS team_salary_cents
  FROM closure cl JOIN employees s ON s.id = cl.descendant
  GROUP BY cl.anc
),
direct AS (
  SELECT manager_id AS id, count(*) AS n FROM employees WHERE manager_id IS NOT NULL GROUP BY manager_id
)
SELECT e.id, e.name, t.depth, t.chain,
       CASE WHEN t.id IS NULL THEN NULL ELSE coalesce(d.n, 0) END AS direct_reports,
       tot.total_reports, tot.team_salary_cents,
       CASE WHEN t.id IS NULL THEN 1 ELSE 0 END AS detached
FROM employees e
LEFT JOIN tree t ON t.id = e.id
LEFT JOIN totals tot ON tot.id = e.id
LEFT JOIN direct d ON d.id = e.id
ORDER BY e.id;
SQL
