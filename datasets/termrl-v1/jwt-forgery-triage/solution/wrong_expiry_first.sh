#!/bin/bash
# Mistake: checks exp/nbf before the signature, so forged tokens that are also expired read as expired.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/jwtriage.py").read()
old = "    if not ok:\n        return \"bad-signature\"\n"
assert old in s
s = s.replace(old, "")
old = "    return \"valid\"\n"
s = s.replace(old, "    return \"valid\" if ok else \"bad-signature\"\n")
old = "    alg = header[\"alg\"]\n"
s = s.replace(old, old + "    exp0 = payload.get(\"exp\")\n    if alg.lower() != \"none\" and isinstance(exp0, int) and exp0 <= now:\n        return \"expired\"\n")
open("/app/jwtriage.py", "w").write(s)
PY
