#!/bin/bash
# Mistake: handles only the 7-bit and 16-bit length forms (messages of 64 KiB or more break).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/wsrooms/server.py"
s = open(p).read()
old1 = """    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 127, n)
"""
old2 = """            elif n == 127:
                n = struct.unpack("!Q", self.recv_exact(8))[0]
"""
assert old1 in s and old2 in s
s = s.replace(old1, "").replace("    elif n < 65536:\n        head", "    else:\n        head")
s = s.replace(old2, """            elif n == 127:
                raise Closing(1009)
""")
open(p, "w").write(s)
PY
