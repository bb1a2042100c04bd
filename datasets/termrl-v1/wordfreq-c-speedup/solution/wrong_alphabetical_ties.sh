#!/bin/bash
# Plausible but wrong: hash table and qsort, but equal counts are ordered alphabetically (the usual
# "count desc, word asc" comparator) instead of by first appearance.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/wf/wordfreq.c"
s = open(p).read()
old = "    return x->first < y->first ? -1 : (x->first > y->first);\n"
assert old in s
open(p, "w").write(s.replace(old, "    return strcmp(x->word, y->word);\n"))
PY
make -C /app/wf clean
make -C /app/wf
