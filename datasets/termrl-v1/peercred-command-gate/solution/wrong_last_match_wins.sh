#!/bin/bash
# Mistake: every line is evaluated and the last matching one decides (as in some ACL formats).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gate/gate.py"
s = open(p).read()
old = """        if covers and fnmatch.fnmatchcase(request, pattern):
            return action, no
    return "deny", None"""
new = """        if covers and fnmatch.fnmatchcase(request, pattern):
            last = (action, no)
    return locals().get("last", ("deny", None))"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
