#!/bin/bash
# Mistake: splits the SQL on every ";", which breaks triggers and string literals containing ";".
set -euo pipefail
python3 - <<'PY'
src = open("/solution/migrate.py").read()
old = "            for statement in statements(entry[step].read_text()):"
new = "            for statement in [s for s in entry[step].read_text().split(\";\") if s.strip()]:"
assert old in src
open("/app/migrate.py", "w").write(src.replace(old, new))
PY
chmod 755 /app/migrate.py
