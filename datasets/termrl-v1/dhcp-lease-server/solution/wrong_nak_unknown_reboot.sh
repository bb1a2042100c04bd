#!/bin/bash
# Mistake: an INIT-REBOOT request from a client the server has no record of is answered with NAK instead of silence.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/dhcp/server.py"
s = open(p).read()
old = """            if key not in leases and holder(want) is None:
                return None
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
