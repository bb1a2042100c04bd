#!/bin/bash
# Mistake: every request sends nc=00000001, as if each were the first use of the nonce.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/dget"
s = open(p).read()
old = '        nc, cnonce = f"{self.nc:08x}", os.urandom(8).hex()'
assert old in s
open(p, "w").write(s.replace(old, '        nc, cnonce = "00000001", os.urandom(8).hex()'))
PY
