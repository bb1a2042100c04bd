#!/bin/bash
# Mistake: the port of XOR-MAPPED-ADDRESS is XORed with the low 16 bits of the magic cookie instead of the high ones.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/stun/server.py"
s = open(p).read()
old = "port ^ (COOKIE >> 16)"
assert old in s
open(p, "w").write(s.replace(old, "port ^ (COOKIE & 0xFFFF)"))
PY
