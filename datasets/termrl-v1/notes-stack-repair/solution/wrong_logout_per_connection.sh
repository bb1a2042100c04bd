#!/bin/bash
# Mistake: fixes everything visible in a first session (ports, key, SQLite, socket dir, headers) but not
# authd's per-connection revocation list, so a logout is forgotten as soon as that connection closes.
set -euo pipefail
bash /solution/solve.sh
cd /app/stack
python3 - <<'PY'
p = "authd.py"
s = open(p).read()
s = s.replace("class Handler(socketserver.StreamRequestHandler):\n",
              "class Handler(socketserver.StreamRequestHandler):\n    def setup(self):\n        super().setup()\n        self.revoked = set()\n\n")
s = s.replace("sig in REVOKED", "sig in self.revoked").replace("REVOKED.add(sig)", "self.revoked.add(sig)")
open(p, "w").write(s)
PY
