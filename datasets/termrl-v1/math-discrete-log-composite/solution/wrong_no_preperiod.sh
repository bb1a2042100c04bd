#!/bin/bash
# Mistake: assumes the powers of a are periodic from x = 0; when a shares a factor with n the first few powers
# (a^0 = 1, a^1, ...) are missed.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/dlog.py").read()
old = "    K = 64\n"
assert old in s
s = s.replace(old, "    K = 0\n")
open("/app/dlog.py", "w").write(s)
PY
