#!/bin/bash
# Mistake: flags a key as shared whenever it appears more than once, even twice for the same user.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/keyaudit.py").read()
old = "            owners.setdefault(e[\"fingerprint\"], set()).add(e[\"user\"])"
assert old in s
s = s.replace(old, "            owners.setdefault(e[\"fingerprint\"], []).append(e[\"user\"])")
open("/app/keyaudit.py", "w").write(s)
PY
