#!/bin/bash
# Mistake: no lock around the bucket, and a slow audit call (simulated) between the check and the decrement.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ratelimit/server.py"
s = open(p).read()
s = s.replace("    with LOCK:\n        b = BUCKETS[key]", "    if True:\n        b = BUCKETS[key]")
s = s.replace('        if b["tokens"] >= 1:\n            b["tokens"] -= 1', '        if b["tokens"] >= 1:\n            t = b["tokens"]\n            time.sleep(0.01)\n            b["tokens"] = t - 1')
open(p, "w").write(s)
PY
