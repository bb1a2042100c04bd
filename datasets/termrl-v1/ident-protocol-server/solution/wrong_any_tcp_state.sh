#!/bin/bash
# Mistake: sockets in every TCP state are considered, not only established connections.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/identd/identd.py"
s = open(p).read()
old = """            if f[3] != "01":
                continue
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
