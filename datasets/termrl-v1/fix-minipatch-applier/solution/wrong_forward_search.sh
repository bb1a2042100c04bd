#!/bin/bash
# Mistake: fixes everything except the placement search, which still only looks forward from the
# expected position (it works while patches only ever move hunks down).
set -euo pipefail
cp "$(dirname "$0")/minipatch.py" /app/minipatch.py
python3 - <<'PY'
p = "/app/minipatch.py"
s = open(p).read()
old = """        if fits(expected - dist):
            return expected - dist
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
