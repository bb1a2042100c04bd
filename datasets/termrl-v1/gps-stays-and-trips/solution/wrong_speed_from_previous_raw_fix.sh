#!/bin/bash
# Plausible but wrong: the speed filter compares each fix with the previous fix in time order, dropped or not, so the good fix right after a glitch is dropped too.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/trips.py")
s = p.read_text()
for old, new in [('''        kept = []
        for p in pts:
            if not kept or dist(kept[-1], p) <= 70 * (p[0] - kept[-1][0]) / 1000:
                kept.append(p)''', '''        kept = []
        for i, p in enumerate(pts):
            if i == 0 or dist(pts[i - 1], p) <= 70 * (p[0] - pts[i - 1][0]) / 1000:
                kept.append(p)''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
