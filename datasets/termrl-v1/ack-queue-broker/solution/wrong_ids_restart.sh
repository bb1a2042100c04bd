#!/bin/bash
# Mistake: after a restart the next id is computed from the messages still stored, so ids of acknowledged
# messages at the end of the queue are given out again.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mq/broker.py"
s = open(p).read()
old = """        self.ready = sorted(self.msgs)
"""
assert old in s
open(p, "w").write(s.replace(old, """        self.ready = sorted(self.msgs)
        self.next = max(self.msgs, default=0) + 1
"""))
PY
