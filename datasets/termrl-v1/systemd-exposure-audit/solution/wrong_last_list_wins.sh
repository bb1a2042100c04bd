#!/bin/bash
# Mistake: treats CapabilityBoundingSet / RestrictAddressFamilies like scalars: the last list replaces
# the set, and a ~ list means "everything but these".
set -euo pipefail
python3 - <<'PY'
s = open("/solution/exposure.py").read()
old = "        if items[0].startswith(\"~\"):"
assert old in s
s = s.replace(old, "        self.__init__()\n        if items[0].startswith(\"~\"):")
open("/app/exposure.py", "w").write(s)
PY
