#!/bin/bash
# Mistake: uses Sunday-based weeks (strftime %U) instead of ISO weeks.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/prune.py").read()
s = s.replace("    monday = now.date() - datetime.timedelta(days=now.weekday())",
              "    monday = now.date() - datetime.timedelta(days=(now.weekday() + 1) % 7)")
s = s.replace("lambda t: t.date() - datetime.timedelta(days=t.weekday())", "lambda t: t.date() - datetime.timedelta(days=(t.weekday() + 1) % 7)")
open("/app/prune.py", "w").write(s)
PY
python3 /app/prune.py /backups/db --now 2025-03-15T12:00:00 >/dev/null
