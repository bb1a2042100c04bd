#!/bin/bash
# Mistake: when a client goes away inside a transaction, its server connection is put back in the pool as it is,
# still inside the transaction.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pooler/pooler.py"
s = open(p).read()
old = """                backend.sock.sendall(msg(b"Q", b"ROLLBACK\\0"))
                while backend.stream.message()[0] != b"Z":
                    pass
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
