#!/bin/bash
# Mistake: verifies every entry with the initial key, ignoring the key evolution per epoch.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/sealcheck.py").read()
old = "                want = hmac.new(key(obj[\"epoch\"]), link + canon, hashlib.sha256).hexdigest()"
assert old in s
s = s.replace(old, "                want = hmac.new(k0, link + canon, hashlib.sha256).hexdigest()")
open("/app/sealcheck.py", "w").write(s)
PY
