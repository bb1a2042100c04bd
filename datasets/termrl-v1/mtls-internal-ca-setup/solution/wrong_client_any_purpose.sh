#!/bin/bash
# Mistake: client certificates carry no extended key usage, so they are valid for any purpose, including
# impersonating a server.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/solve.sh").read()
old = """[client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
"""
assert old in s
open("/tmp/solve_variant.sh", "w").write(s.replace(old, """[client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
"""))
PY
bash /tmp/solve_variant.sh
