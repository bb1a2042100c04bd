#!/bin/bash
# Mistake: the count in the goodbye reply is kept per device across sessions instead of per session.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/collector/collector.py"
s = open(p).read()
reps = [
    ("                total, last_seq = 0, None\n", "                total, last_seq = TOTALS.get(device, 0), None\n"),
    ("                    total += len(lines)\n", "                    total += len(lines)\n                    TOTALS[device] = total\n"),
    ("def crc16(data):", "TOTALS = {}\n\n\ndef crc16(data):"),
]
for a, b in reps:
    assert a in s, a
    s = s.replace(a, b)
open(p, "w").write(s)
PY
