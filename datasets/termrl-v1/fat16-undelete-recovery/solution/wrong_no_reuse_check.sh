#!/bin/bash
# Mistake: recovers every deleted file from its clusters without checking that they are still free,
# so files whose clusters were reused come back as garbage and are reported as recovered.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/undelete.py").read()
old = "and all(fat[c] == 0 for c in span))"
assert old in s
s = s.replace(old, ")")
open("/app/undelete.py", "w").write(s)
PY
