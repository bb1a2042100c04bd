#!/bin/bash
# Mistake: the redelivered flag lives only in memory, so messages delivered before a crash come back
# flagged as new.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mq/broker.py"
s = open(p).read()
old = """                self.write(f"D {i}")
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
