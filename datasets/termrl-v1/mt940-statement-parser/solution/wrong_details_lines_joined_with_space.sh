#!/bin/bash
# Plausible but wrong: the continuation lines of :86: are joined with a space, as for wrapped text, so subfields split across lines get a stray space.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/mt940.py")
s = p.read_text()
for old, new in [('''parse86(first + "".join(more))''', '''parse86(" ".join([first] + more))''')]:
    assert old in s, old
    s = s.replace(old, new)
p.write_text(s)
PY
