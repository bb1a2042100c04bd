#!/bin/bash
# Mistake: the jail is a string check on the joined path; symbolic links inside the home lead outside it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ftpd/ftpd.py"
s = open(p).read()
old = """        path = os.path.join(home, *stack)
        resolved = os.path.realpath(path)"""
new = """        path = os.path.join(home, *stack)
        resolved = os.path.abspath(path)"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
