#!/bin/bash
# Mistake: one HPACK decoder (one dynamic table) is shared by all connections instead of one per connection.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/h2/server.py"
s = open(p).read()
old = "        self.decoder = Decoder()\n"
assert old in s
s = s.replace(old, "        self.decoder = SHARED\n").replace("class Stream:", "SHARED = Decoder()\n\n\nclass Stream:")
open(p, "w").write(s)
PY
