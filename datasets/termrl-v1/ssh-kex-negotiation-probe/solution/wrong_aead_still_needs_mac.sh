#!/bin/bash
# Mistake: a MAC is negotiated even for AEAD ciphers, so a client offering no common MAC fails with an AEAD cipher.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kexprobe/probe.py"
s = open(p).read()
old = """        if cipher in AEAD:
            result.append("<implicit>")
            continue
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
