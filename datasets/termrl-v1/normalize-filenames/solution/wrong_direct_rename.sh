#!/bin/bash
# Mistake: renames in place one by one (mv -f), overwriting files whose current name is someone else's target.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/normalize.py").read()
s = s.replace("            t = f\".normalize-{uuid.uuid4().hex}\"\n            os.rename(os.path.join(d, old), os.path.join(d, t))\n            tmp[old] = t",
              "            os.replace(os.path.join(d, old), os.path.join(d, new))")
s = s.replace("    for old, new in plan:\n        if old != new:\n            os.rename(os.path.join(d, tmp[old]), os.path.join(d, new))\n", "")
open("/app/normalize", "w").write(s)
PY
chmod +x /app/normalize
/app/normalize /app/inbox > /app/inbox_renames.tsv
