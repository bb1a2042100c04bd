#!/bin/bash
# Mistake: a posted line starting with ".." is stored as received; the client's dot-stuffing is not undone.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/nntp/server.py"
s = open(p).read()
old = """            lines.append(line[1:] if line.startswith("..") else line)"""
assert old in s
open(p, "w").write(s.replace(old, """            lines.append(line)"""))
PY
