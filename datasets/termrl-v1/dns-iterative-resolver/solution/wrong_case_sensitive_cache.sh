#!/bin/bash
# Mistake: names are kept as written, so the cache misses when the same name is asked in another case.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/resolver/resolver.py"
s = open(p).read()
old = '            return ".".join(labels).lower(), (end if end is not None else off + 1)'
assert old in s
open(p, "w").write(s.replace(old, '            return ".".join(labels), (end if end is not None else off + 1)'))
PY
