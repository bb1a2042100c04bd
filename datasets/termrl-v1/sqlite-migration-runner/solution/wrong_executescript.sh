#!/bin/bash
# Mistake: runs each file with executescript(), which commits on its own: a failing migration leaves its
# first statements behind (not atomic).
set -euo pipefail
python3 - <<'PY'
src = open("/solution/migrate.py").read()
old = """            for statement in statements(entry[step].read_text()):
                con.execute(statement)
"""
new = """            con.executescript(entry[step].read_text())
            con.execute("BEGIN")
"""
assert old in src
open("/app/migrate.py", "w").write(src.replace(old, new))
PY
chmod 755 /app/migrate.py
