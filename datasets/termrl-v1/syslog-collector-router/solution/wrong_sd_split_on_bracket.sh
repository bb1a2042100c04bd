#!/bin/bash
# Mistake: structured data is cut at the first ']' and values are split naively, so escaped quotes and
# brackets inside values break the message.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/collector/collector.py"
s = open(p).read()
old = '''                if c == b"\\\\" and data[i + 1:i + 2] in (b'"', b"\\\\", b"]"):
                    value += data[i + 1:i + 2]
                    i += 2
                elif c == b'"':'''
new = '''                if c == b'"':'''
assert old in s, "pattern"
open(p, "w").write(s.replace(old, new))
PY
