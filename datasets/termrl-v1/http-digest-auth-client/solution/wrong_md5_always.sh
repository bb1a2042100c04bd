#!/bin/bash
# Mistake: always answers the MD5 challenge, even when SHA-256 is offered.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/dget"
s = open(p).read()
old = """    for c in chs:
        if c.get("algorithm", "MD5").upper() == "SHA-256":
            return c
    for c in chs:"""
assert old in s
open(p, "w").write(s.replace(old, "    for c in chs:"))
PY
