#!/bin/bash
# Mistake: exactly COUNT bytes are read for a file; the zero byte the client sends after the contents is left in
# the stream and taken as the start of the next subcommand.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/lpd/lpd.py"
s = open(p).read()
old = """        body = c.exact(int(parts[0]) + 1)
        if body is None:
            return
        if body[-1:] != b"\\0":
            c.sock.sendall(b"\\x01")
            return
"""
new = """        body = c.exact(int(parts[0]))
        if body is None:
            return
        body += b"\\0"
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
