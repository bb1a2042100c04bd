#!/bin/bash
# Plausible but wrong: a window closes only once the watermark is strictly past its end (and an event is late
# only then), so the window that ends exactly at the watermark still takes events.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/winagg.py")
s = p.read_text()
for old, new in (("start + WINDOW <= self.maxts - LATENESS", "start + WINDOW < self.maxts - LATENESS"),
                 ("k[0] + WINDOW <= wm", "k[0] + WINDOW < wm")):
    assert old in s
    s = s.replace(old, new)
p.write_text(s)
PY
