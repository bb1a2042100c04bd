#!/bin/bash
# Mistake: bencoded dictionaries keep insertion order instead of sorting their keys as raw byte strings.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tracker/tracker.py"
s = open(p).read()
old = """    items = sorted((k.encode() if isinstance(k, str) else k, v) for k, v in x.items())"""
assert old in s
open(p, "w").write(s.replace(old, """    items = [(k.encode() if isinstance(k, str) else k, v) for k, v in x.items()]"""))
PY
