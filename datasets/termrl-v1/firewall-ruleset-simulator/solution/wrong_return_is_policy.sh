#!/bin/bash
# Mistake: RETURN (and falling off a user chain) ends evaluation with the built-in chain's policy.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/fwsim.py").read()
s = s.replace("        res = run_chain(chains, target, pkt)\n        if res is not None:\n            return res\n",
              "        return run_chain(chains, target, pkt)\n")
open("/app/fwsim", "w").write(s)
PY
chmod +x /app/fwsim
