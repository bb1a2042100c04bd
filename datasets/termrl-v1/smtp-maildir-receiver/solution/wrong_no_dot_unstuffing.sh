#!/bin/bash
# Mistake: keeps the dot a client adds to lines starting with '.', so such lines are stored with an extra dot.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mailrx/server.py"
s = open(p).read()
old = """                    if body.startswith(b"."):
                        body = body[1:]
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
