#!/bin/bash
# Mistake: measures entropy with the natural
# logarithm (nats instead of bits), so the 3.5 threshold drops real secrets.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/secretscan.py").read()
old = "    return -sum(v / len(s) * math.log2(v / len(s)) for v in c.values())"
assert old in s
s = s.replace(old, "    return -sum(v / len(s) * math.log(v / len(s)) for v in c.values())")
open("/app/secretscan.py", "w").write(s)
PY
