#!/bin/bash
# Plausible but wrong: ids and open windows are kept between runs, but the watermark is not: each run starts
# without one, so an event of an already closed window at the start of a batch opens that window again.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/winagg.py")
s = p.read_text()
old = '"maxts": self.maxts.isoformat() if self.maxts else None'
assert old in s
p.write_text(s.replace(old, '"maxts": None'))
PY
