#!/bin/bash
# Mistake: the "any" parts of a substring filter are looked for anywhere in the value, not after the initial part
# and after each other.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ldap/server.py"
s = open(p).read()
old = """            j = v.find(s, pos)
            if j < 0:
                return False
            pos = j + len(s)
"""
assert old in s
open(p, "w").write(s.replace(old, """            if s not in v:
                return False
"""))
PY
