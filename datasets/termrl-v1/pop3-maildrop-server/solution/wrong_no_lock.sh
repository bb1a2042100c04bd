#!/bin/bash
# Mistake: no maildrop lock, so two sessions of the same user can both log in and both apply deletions.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pop3d/server.py"
s = open(p).read()
old = "                        if pending in LOCKS:\n"
assert old in s
open(p, "w").write(s.replace(old, "                        if False:\n"))
PY
