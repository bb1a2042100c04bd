#!/bin/bash
# Mistake: bit 0 of the selective-acknowledgement bitmap stands for the next expected packet itself instead of the
# one after it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/rx/receiver.py"
s = open(p).read()
old = """        if (s["next"] + 1 + i) % M in s["buf"]:"""
assert old in s
open(p, "w").write(s.replace(old, """        if (s["next"] + i) % M in s["buf"]:"""))
PY
