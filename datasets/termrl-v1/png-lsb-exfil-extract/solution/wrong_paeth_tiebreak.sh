#!/bin/bash
# Mistake: the Paeth predictor prefers the upper-left byte over the upper byte on a tie, so rows
# filtered with Paeth decode wrongly wherever that tie occurs.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/stegx.py").read()
old = "                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)"
assert old in s
s = s.replace(old, "                pred = a if pa <= pb and pa <= pc else (b if pb < pc else c)")
open("/app/stegx.py", "w").write(s)
PY
