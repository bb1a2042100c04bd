#!/bin/bash
# Mistake: treats "bytes=-N" as "bytes=0-N".
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/static/server.py"
s = open(p).read()
s = s.replace("start, end = max(0, size - n), size - 1", "start, end = 0, min(n, size - 1)")
open(p, "w").write(s)
PY
