#!/bin/bash
# Mistake: a Set applies its variable bindings one by one and stops at the first bad one, leaving the earlier ones
# changed.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snmp/agent.py"
s = open(p).read()
old = """        new.append((o, value))
"""
assert old in s
open(p, "w").write(s.replace(old, """        new.append((o, value))
        MIB[o][2] = value
"""))
PY
