#!/bin/bash
# Mistake: a fixed one-second window counter instead of a refilling token bucket.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ratelimit/server.py"
s = open(p).read()
s = s.replace('''        b["tokens"] = min(float(conf["capacity"]), b["tokens"] + (now - b["t"]) * conf["refill_per_sec"])
        b["t"] = now''', '''        if now - b["t"] >= 1:
            b["tokens"] = float(conf["capacity"])
            b["t"] = now''')
open(p, "w").write(s)
PY
