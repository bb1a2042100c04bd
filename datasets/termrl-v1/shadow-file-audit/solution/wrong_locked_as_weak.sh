#!/bin/bash
# Mistake: flags every non-strong field as weak, including locked ones like "!$6$..." and "!".
set -euo pipefail
bash /solution/solve.sh >/dev/null
python3 - <<'PY'
import json
rep = json.load(open("/app/account_audit.json"))
sh = {l.split(":")[0]: l.split(":")[1] for l in open("/app/audit/shadow").read().splitlines() if l.strip()}
rep["weak_hash"] = sorted(n for n, h in sh.items() if h not in ("", "*") and not h.startswith(("$6$", "$y$", "$2b$")))
json.dump(rep, open("/app/account_audit.json", "w"))
PY
