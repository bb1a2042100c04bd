#!/bin/bash
# Mistake: reports every token of the GitHub shape without checking its CRC32 checksum.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/secretscan.py").read()
old = "            if b62(zlib.crc32(m.group(2).encode())) == m.group(3):"
assert old in s
s = s.replace(old, "            if True:")
open("/app/secretscan.py", "w").write(s)
PY
