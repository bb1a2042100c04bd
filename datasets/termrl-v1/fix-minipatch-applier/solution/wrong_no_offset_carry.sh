#!/bin/bash
# Mistake: searches both ways but always starts from the position in the hunk header, ignoring the
# offset at which the previous hunk applied.
set -euo pipefail
cp "$(dirname "$0")/minipatch.py" /app/minipatch.py
python3 - <<'PY'
p = "/app/minipatch.py"
s = open(p).read()
old = "where = locate(lines, old, start + offset, done)"
assert old in s
open(p, "w").write(s.replace(old, "where = locate(lines, old, start, done)"))
PY
