#!/bin/bash
# Mistake: bindings are listed in registration order; their q values are not used for ordering.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/sip/registrar.py"
s = open(p).read()
old = """    ordered = sorted(current, key=lambda b: (-b[2], b[3]))"""
assert old in s
open(p, "w").write(s.replace(old, """    ordered = sorted(current, key=lambda b: b[3])"""))
PY
