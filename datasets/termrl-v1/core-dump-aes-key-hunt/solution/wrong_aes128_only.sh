#!/bin/bash
# Mistake: looks for AES-128 schedules only.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/keyhunt.py").read()
old = "    for nk, bits in ((4, 128), (6, 192), (8, 256)):"
assert old in s
s = s.replace(old, "    for nk, bits in ((4, 128),):")
open("/app/keyhunt.py", "w").write(s)
PY
