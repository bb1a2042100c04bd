#!/bin/bash
# Mistake: reports duplicate UIDs as strings and counts root in uid0_accounts.
set -euo pipefail
bash /solution/solve.sh >/dev/null
python3 - <<'PY'
import json
rep = json.load(open("/app/account_audit.json"))
rep["duplicate_uids"] = [str(u) for u in rep["duplicate_uids"]]
rep["uid0_accounts"] = sorted(rep["uid0_accounts"] + ["root"])
json.dump(rep, open("/app/account_audit.json", "w"))
PY
