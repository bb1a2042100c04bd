#!/bin/bash
# Mistake: validates UTF-8 on each frame instead of on the joined message, so a character split across two
# fragments is refused with 1007.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/wsrooms/server.py"
s = open(p).read()
old = """                if opcode:
                    message, kind = data, opcode"""
new = """                if opcode != 2:
                    try:
                        data.decode("utf-8")
                    except UnicodeDecodeError:
                        raise Closing(1007)
                if opcode:
                    message, kind = data, opcode"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
