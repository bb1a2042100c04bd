#!/bin/bash
# Plausible but wrong: an event without a currency gets an empty currency, not the shop's default.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/normalize.py")
s = p.read_text()
for old, new in [('''(ev.get("currency") or "EUR").upper()''', '''(ev.get("currency") or "").upper()''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
