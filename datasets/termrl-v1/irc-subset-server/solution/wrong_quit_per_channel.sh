#!/bin/bash
# Mistake: QUIT and NICK are announced once per shared channel, so a peer in two channels gets them twice.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ircd/ircd.py"
s = open(p).read()
old = """            for m in c[1]:
                if m is not self and m not in out:
                    out.append(m)"""
new = """            for m in c[1]:
                if m is not self:
                    out.append(m)"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
