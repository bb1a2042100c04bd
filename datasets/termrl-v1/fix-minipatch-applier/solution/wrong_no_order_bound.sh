#!/bin/bash
# Mistake: searches in both directions but lets a hunk land before the end of the previous one.
set -euo pipefail
cp "$(dirname "$0")/minipatch.py" /app/minipatch.py
python3 - <<'PY'
p = "/app/minipatch.py"
s = open(p).read()
old = "return lowest <= p and p + len(old)"
assert old in s
open(p, "w").write(s.replace(old, "return 0 <= p and p + len(old)"))
PY
