#!/bin/bash
# Plausible but wrong: each batch is sorted by event time before it is processed ("fix the out-of-order
# events first"), so events that arrived after the watermark had passed their window are not reported late.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/winagg.py")
s = p.read_text()
old = """            for line in f:
                if line.strip():
                    agg.add(line)"""
new = """            lines = [l for l in f if l.strip()]
            key = lambda l: parse(l)[2] if parse(l) else datetime(1970, 1, 1, tzinfo=timezone.utc)
            for line in sorted(lines, key=key):
                agg.add(line)"""
assert old in s
p.write_text(s.replace(old, new))
PY
