#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import json
pw = [l.split(":") for l in open("/app/audit/passwd").read().splitlines() if l.strip()]
sh = {l.split(":")[0]: l.split(":")[1] for l in open("/app/audit/shadow").read().splitlines() if l.strip()}
shells = {l.strip() for l in open("/app/audit/shells") if l.strip() and not l.startswith("#")}
uids = {}
for f in pw:
    uids.setdefault(int(f[2]), []).append(f[0])
def weak(h):
    if h == "" or h[0] in "!*":
        return False
    return not any(h.startswith(p) for p in ("$6$", "$y$", "$2b$"))
rep = {
    "empty_password": sorted(n for n, h in sh.items() if h == ""),
    "weak_hash": sorted(n for n, h in sh.items() if weak(h)),
    "uid0_accounts": sorted(f[0] for f in pw if f[2] == "0" and f[0] != "root"),
    "duplicate_uids": sorted(u for u, names in uids.items() if len(names) > 1),
    "missing_shadow": sorted(f[0] for f in pw if f[0] not in sh),
    "system_login_shells": sorted(f[0] for f in pw if 1 <= int(f[2]) <= 999 and f[6] in shells),
}
json.dump(rep, open("/app/account_audit.json", "w"), indent=2)
print(rep)
PY
