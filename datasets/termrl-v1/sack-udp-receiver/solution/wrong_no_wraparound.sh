#!/bin/bash
# Mistake: sequence numbers are compared as plain integers; after 2^32 - 1 the next packet (0) is outside the window.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/rx/receiver.py"
s = open(p).read()
old = """        off = (seq - s["next"]) % M
        limit = WINDOW"""
assert old in s
s = s.replace(old, """        off = seq - s["next"] if seq >= s["next"] else M
        limit = WINDOW""")
open(p, "w").write(s)
PY
