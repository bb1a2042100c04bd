#!/bin/bash
# Mistake: conflicting IDs get "highest ID in use + 1" instead of the smallest free ID in the range.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/merge_accounts.py").read()
src = src.replace("    n = lo\n", "    n = max([lo] + [u + 1 for u in used if lo <= u <= hi])\n")
open("/app/merge-accounts", "w").write(src)
PY
chmod +x /app/merge-accounts
/app/merge-accounts /etc /app/oldhost /srv/oldhome
