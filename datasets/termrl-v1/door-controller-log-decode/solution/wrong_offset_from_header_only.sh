#!/bin/bash
# Plausible but wrong: the UTC offset is taken from the header only; the 'Z' lines are skipped like comments.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/acx2csv")
s = p.read_text()
old, new = '''            offset = int(line[1:])''', '''            pass'''
assert old in s
p.write_text(s.replace(old, new))
PY
