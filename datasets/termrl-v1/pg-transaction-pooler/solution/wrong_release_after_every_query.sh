#!/bin/bash
# Mistake: statement-level pooling: the server connection goes back to the pool after every query, even inside a
# transaction.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pooler/pooler.py"
s = open(p).read()
old = """            if status == b"I":
                POOL.release(key, backend)"""
assert old in s
open(p, "w").write(s.replace(old, """            if status:
                POOL.release(key, backend)"""))
PY
