#!/bin/bash
# Mistake: restarts the payload keystream for every frame instead of carrying it across the session
# (works for one-frame replies, breaks long listings and multi-frame transfers).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/vault_client.py").read()
s = s.replace("        body = self.ks_out.apply(payload) if self.ks_out else payload\n",
              "        body = Keystream(self.ks_out.x).apply(payload) if self.ks_out else payload\n")
s = s.replace("            body = self.ks_in.apply(body)\n", "            body = Keystream(self.ks_in.x).apply(body)\n")
open("/app/vault_client.py", "w").write(s)
PY
