#!/bin/bash
# Mistake: joins the long-name parts in the order they are stored on disk (last part first).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/undelete.py").read()
old = "        for e in reversed(run):"
assert old in s
s = s.replace(old, "        for e in run:")
open("/app/undelete.py", "w").write(s)
PY
