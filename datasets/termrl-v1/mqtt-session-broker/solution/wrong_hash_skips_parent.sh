#!/bin/bash
# Mistake: a multi-level wildcard only matches deeper levels: "sport/#" does not match "sport" itself.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mqtt/broker.py"
s = open(p).read()
old = """        if part == b"#":
            return True
        if i >= len(t) or (part != b"+" and part != t[i]):
            return False
"""
new = """        if i >= len(t):
            return False
        if part == b"#":
            return True
        if part != b"+" and part != t[i]:
            return False
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
