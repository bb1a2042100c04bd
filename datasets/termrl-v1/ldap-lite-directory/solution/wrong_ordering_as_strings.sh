#!/bin/bash
# Mistake: greaterOrEqual/lessOrEqual always compare case-folded strings, so "900" >= "10000".
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ldap/server.py"
s = open(p).read()
old = """    try:
        a, b = int(x), int(y)
    except ValueError:
        a, b = x.lower(), y.lower()
"""
assert old in s
open(p, "w").write(s.replace(old, "    a, b = x.lower(), y.lower()\n"))
PY
