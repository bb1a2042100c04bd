#!/bin/bash
# Mistake: SSH_MSG_IGNORE and SSH_MSG_DEBUG packets before KEXINIT are treated as protocol errors.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kexprobe/probe.py"
s = open(p).read()
old = """            if payload[:1] in (b"\\x02", b"\\x04"):
                continue
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
