#!/bin/bash
# Mistake: reads only the first cluster of each subdirectory instead of following its FAT chain.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/undelete.py").read()
old = "walk(b\"\".join(cluster(c) for c in chain(first)), full)"
assert old in s
s = s.replace(old, "walk(cluster(first), full)")
open("/app/undelete.py", "w").write(s)
PY
