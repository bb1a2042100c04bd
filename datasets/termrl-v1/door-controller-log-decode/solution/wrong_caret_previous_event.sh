#!/bin/bash
# Plausible but wrong: '^' read as 'the badge of the previous event', so after a forced or held event it has no badge.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/acx2csv")
s = p.read_text()
old, new = '''            elif kind == "H":
                detail''', '''            else:
                last_badge = None
            if kind == "H":
                detail'''
assert old in s
p.write_text(s.replace(old, new))
PY
