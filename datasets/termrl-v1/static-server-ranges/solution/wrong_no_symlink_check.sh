#!/bin/bash
# Mistake: normalises ".." textually but follows symlinks out of the root.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/static/server.py"
s = open(p).read()
s = s.replace("full = os.path.realpath(os.path.join(ROOT, rel.lstrip(\"/\")))", "full = os.path.normpath(os.path.join(ROOT, rel.lstrip(\"/\")))")
open(p, "w").write(s)
PY
