#!/bin/bash
# Mistake: splits the line on whitespace and the options on every comma, ignoring double quotes.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/keyaudit.py").read()
old = "        opts, rest = split_options(line)"
assert old in s
s = s.replace(old, "        head, _, rest = line.partition(\" \")\n        opts = [o.replace('\"', '') for o in head.split(\",\")]")
open("/app/keyaudit.py", "w").write(s)
PY
