#!/bin/bash
# Plausible but wrong: structured values (N, ORG) are split on every ';' before unescaping, so an escaped
# semicolon inside a name or organisation splits it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/vcards.py")
s = p.read_text()
old = '''def components(value):
    """Split on unescaped ';' and unescape each component."""
'''
new = '''def components(value):
    return [unescape(c) for c in value.split(";")]


def _unused(value):
'''
assert old in s
p.write_text(s.replace(old, new))
PY
