#!/bin/bash
# Plausible but wrong: enrolment lines are read as a lookup table where the first name of a badge is kept, so re-enrolled badges keep their old holder.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/acx2csv")
s = p.read_text()
old, new = '''            holders[int(m.group(1), 16)] = unquote(m.group(2))''', '''            holders.setdefault(int(m.group(1), 16), unquote(m.group(2)))'''
assert old in s
p.write_text(s.replace(old, new))
PY
