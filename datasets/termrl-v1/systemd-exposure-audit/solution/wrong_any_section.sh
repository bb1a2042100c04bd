#!/bin/bash
# Mistake: reads the keys from every section, not only [Service].
set -euo pipefail
python3 - <<'PY'
s = open("/solution/exposure.py").read()
old = "            if section != \"Service\" or \"=\" not in line:"
assert old in s
s = s.replace(old, "            if \"=\" not in line:")
open("/app/exposure.py", "w").write(s)
PY
