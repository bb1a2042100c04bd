#!/bin/bash
# Plausible but wrong: amounts are read the English way (',' groups thousands, '.' is the decimal point), which breaks the exports with decimal commas.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/merge_exports.py")
s = p.read_text()
old, new = '''    m = re.search(r"[.,](\d{1,2})$", s)''', '''    m = re.search(r"[.](\d{1,3})$", s)'''
assert old in s
p.write_text(s.replace(old, new))
PY
