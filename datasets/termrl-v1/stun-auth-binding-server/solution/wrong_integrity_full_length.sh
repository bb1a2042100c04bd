#!/bin/bash
# Mistake: MESSAGE-INTEGRITY is checked against the message with its header length as received, instead of the
# length up to and including MESSAGE-INTEGRITY; requests that also carry FINGERPRINT are rejected as unauthorized.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/stun/server.py"
s = open(p).read()
old = """    head = msg[:2] + struct.pack(">H", mi_pos + 24 - 20) + msg[4:20]
"""
assert old in s
open(p, "w").write(s.replace(old, "    head = msg[:20]\n"))
PY
