#!/bin/bash
# Mistake: copies/updates but never deletes extraneous entries from DST.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/mirror.py").read()
s = s.replace("            deleted += remove(os.path.join(d, n))", "            pass")
open("/app/mirror.py", "w").write(s)
PY
python3 /app/mirror.py /srv/projects /backup/projects --exclude '*.tmp' --exclude cache
