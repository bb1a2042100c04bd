#!/bin/bash
# Mistake: live messages are forwarded with the RETAIN flag the publisher set, and retained messages sent for a
# new subscription are not marked as retained.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mqtt/broker.py"
s = open(p).read()
reps = [
    ("def route(topic, payload, qos):", "def route(topic, payload, qos, retain=False):"),
    ("            s.deliver(topic, payload, min(qos, max(granted)))", "            s.deliver(topic, payload, min(qos, max(granted)), retain)"),
    ("    route(topic, payload, qos)\n", "    route(topic, payload, qos, retain)\n"),
    ("                        s.deliver(topic, payload, min(rq, q), retain=True)", "                        s.deliver(topic, payload, min(rq, q))"),
]
for a, b in reps:
    assert a in s, a
    s = s.replace(a, b)
open(p, "w").write(s)
PY
