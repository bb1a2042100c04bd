#!/bin/bash
# Partial repair: everything fixed except alias expansion, which still stops after one level.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mailstack/smtpd.py"
s = open(p).read()
old = """    for n in ALIASES.get(name, ()):
        expand(n, out)"""
assert old in s
open(p, "w").write(s.replace(old, """    for n in ALIASES.get(name, ()):
        if n in USERS:
            out.add(n)"""))
PY
