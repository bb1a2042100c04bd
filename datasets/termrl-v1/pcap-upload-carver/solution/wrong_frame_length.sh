#!/bin/bash
# Mistake: takes the TCP payload to run to the end of the captured frame, so the Ethernet padding of
# short frames ends up in the reassembled stream.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/carve.py").read()
s = s.replace("        ip = ip[:total]  # drop link-layer padding\n", "")
open("/app/carve.py", "w").write(s)
PY
