#!/bin/bash
# Mistake: chains each entry to the MAC the verifier computed for the previous entry instead of the MAC
# written in it, so one edited entry also condemns the entry after it.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/sealcheck.py").read()
old = "                prev = obj\n"
assert old in s
s = s.replace(old, "                prev = dict(obj, mac=want)\n")
open("/app/sealcheck.py", "w").write(s)
PY
