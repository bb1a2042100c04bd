#!/bin/bash
# Mistake: protected attributes are left out of anonymous results, but filters still test them, so anonymous
# clients can probe mail and telephoneNumber values.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ldap/server.py"
s = open(p).read()
old = """    if a in HIDDEN or (a in PROTECTED and not bound):
        return None
    for name, vals in entry["attrs"]:"""
assert old in s
open(p, "w").write(s.replace(old, """    if a in HIDDEN:
        return None
    for name, vals in entry["attrs"]:"""))
PY
