#!/bin/bash
# Mistake: compares versions as plain strings / dotted numbers instead of the Debian algorithm.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/aptsolve.py").read()
s = s.replace("def vcmp(a, b):\n", "def vcmp(a, b):\n    return (a > b) - (a < b)\n\n\ndef _unused_vcmp(a, b):\n")
open("/app/aptsolve", "w").write(s)
PY
chmod +x /app/aptsolve
