#!/bin/bash
# Mistake: UDP only, and large answers are sent over UDP untruncated.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/dns/dnsd.py"
s = open(p).read()
s = s.replace("    if udp and len(resp) > 512:", "    if False:")
s = s.replace("    threading.Thread(target=u.serve_forever, daemon=True).start()\n    t.serve_forever()",
              "    t.server_close()\n    import socket as _s\n    keep = _s.socket(); keep.bind((\"127.0.0.1\", PORT)); keep.listen(1)\n    u.serve_forever()")
open(p, "w").write(s)
PY
