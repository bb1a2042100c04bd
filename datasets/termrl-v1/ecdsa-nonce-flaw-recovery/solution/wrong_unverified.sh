#!/bin/bash
# Mistake: trusts the algebra: reports the key solved from a device's first three signatures without
# checking it against the device's public key (so sound devices get a bogus key).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/nonce_audit.py").read()
old = "            if sol and accept(kid, sol[2]):\n                break"
assert old in s
s = s.replace(old, "            if sol:\n                found[kid] = sol[2] % n\n                break")
open("/app/nonce_audit.py", "w").write(s)
PY
