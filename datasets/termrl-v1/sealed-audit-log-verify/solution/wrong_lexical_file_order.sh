#!/bin/bash
# Mistake: orders the rotated files by name (audit.log.10 before audit.log.2) instead of by number.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/sealcheck.py").read()
old = "            rotated.append((int(m.group(1)), name))"
assert old in s
s = s.replace(old, "            rotated.append((m.group(1), name))")
open("/app/sealcheck.py", "w").write(s)
PY
