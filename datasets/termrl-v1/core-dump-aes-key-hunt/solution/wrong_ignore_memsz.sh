#!/bin/bash
# Mistake: maps only p_filesz bytes of each segment (forgets that the rest of p_memsz reads as zeros),
# so memory that runs from a zero-filled tail into the next segment is cut.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/keyhunt.py").read()
old = "            body = data[off:off + filesz] + bytes(max(0, memsz - filesz))"
assert old in s
s = s.replace(old, "            body = data[off:off + filesz]")
open("/app/keyhunt.py", "w").write(s)
PY
