#!/bin/bash
# Mistake: an empty group is reported with low and high mark 0 ("211 0 0 0"), and LIST shows "0 0".
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/nntp/server.py"
s = open(p).read()
old = """        high = STATE["groups"][g]["high"]
        return 0, high + 1, high"""
assert old in s
open(p, "w").write(s.replace(old, """        return 0, 0, 0"""))
PY
