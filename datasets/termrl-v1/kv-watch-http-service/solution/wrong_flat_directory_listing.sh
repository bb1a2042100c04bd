#!/bin/bash
# Mistake: a directory listing returns every key below the directory as a flat list, ignoring subdirectories.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kvwatch/server.py"
s = open(p).read()
old = """    nodes = []
    for child in sorted(children):"""
new = """    return [node(k) for k in sorted(STORE) if k.startswith(base + "/")]
    nodes = []
    for child in sorted(children):"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
