#!/bin/bash
# Mistake: only the leases are saved; declined addresses are kept in memory and offered again after a restart.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/dhcp/server.py"
s = open(p).read()
old = """        leases, declined = dict(st["leases"]), set(st["declined"])"""
assert old in s
open(p, "w").write(s.replace(old, """        leases = dict(st["leases"])"""))
PY
