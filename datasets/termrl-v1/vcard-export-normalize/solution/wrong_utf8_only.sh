#!/bin/bash
# Plausible but wrong: every export is read as UTF-8 (a BOM is skipped), which is what most phones write;
# the UTF-16 exports of the desktop mail client are not decoded.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/vcards.py")
s = p.read_text()
old = '''    if data.startswith((b"\\xff\\xfe", b"\\xfe\\xff")):
        return data.decode("utf-16")
'''
assert old in s
p.write_text(s.replace(old, ""))
PY
