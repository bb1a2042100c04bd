#!/bin/bash
# Mistake: a resumed session only delivers the messages queued while offline; QoS 1 messages that were sent but
# never acknowledged before the connection dropped are forgotten.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mqtt/broker.py"
s = open(p).read()
old = """        for pid, (topic, payload) in self.inflight.items():
            self.conn.send(packet(0x3A, mstr(topic) + struct.pack(">H", pid) + payload))
"""
assert old in s
open(p, "w").write(s.replace(old, "        self.inflight.clear()\n"))
PY
