#!/bin/bash
# Mistake: an outstanding OFFER does not hold its address, so two clients starting at once are offered the same one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/dhcp/server.py"
s = open(p).read()
old = """    for k, a in offers.items():
        if a == addr:
            return k
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
