#!/bin/bash
# Plausible but wrong: files without a byte-order mark are read as UTF-8 with replacement characters, so the Windows-1252 exports lose their accented letters and euro signs.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/merge_exports.py")
s = p.read_text()
old, new = '''        return data.decode("cp1252")''', '''        return data.decode("utf-8", errors="replace")'''
assert old in s
p.write_text(s.replace(old, new))
PY
