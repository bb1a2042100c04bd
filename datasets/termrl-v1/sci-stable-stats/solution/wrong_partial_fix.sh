#!/bin/bash
# Mistake: shifts by the maximum where exp overflows, but keeps the textbook variance formula
# and uses log(1 + .) instead of log1p for log_sigmoid.
set -euo pipefail
cd /app/numstab
python3 - <<'PY'
import re
src = open("stats.py").read()
src = src.replace('''    return math.log(sum(math.exp(x) for x in xs))''', '''    xs = list(xs)
    if not xs:
        return -math.inf
    m = max(xs)
    if m == -math.inf:
        return -math.inf
    return m + math.log(sum(math.exp(x - m) for x in xs))''')
src = src.replace('''    e = [math.exp(x) for x in xs]''', '''    m = max(xs)
    e = [math.exp(x - m) for x in xs]''')
src = src.replace('''    return -math.log(1 + math.exp(-x))''', '''    if x >= 0:
        return -math.log(1 + math.exp(-x))
    return x - math.log(1 + math.exp(x))''')
open("stats.py", "w").write(src)
PY
