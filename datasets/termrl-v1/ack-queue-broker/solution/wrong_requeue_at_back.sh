#!/bin/bash
# Mistake: a NACKed or abandoned message goes to the back of the queue instead of back into id order.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mq/broker.py"
s = open(p).read()
old = """        del self.out[i]
        bisect.insort(self.ready, i)"""
assert old in s
open(p, "w").write(s.replace(old, """        del self.out[i]
        self.ready.append(i)"""))
PY
