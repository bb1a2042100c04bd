#!/bin/bash
# Plausible but wrong: an order that appears again is skipped (first version wins), so corrections in later exports are lost.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/merge_exports.py")
s = p.read_text()
old, new = '''            final[row[1]] = row''', '''            final.setdefault(row[1], row)'''
assert old in s
p.write_text(s.replace(old, new))
PY
