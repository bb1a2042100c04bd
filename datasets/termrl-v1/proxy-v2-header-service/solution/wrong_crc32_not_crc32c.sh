#!/bin/bash
# Mistake: checks the TLV against zlib's CRC-32 (IEEE polynomial) instead of CRC32c (Castagnoli).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pp2/pp2.py"
s = open(p).read()
old = "def crc32c(data):\n"
assert old in s
s = s.replace(old, "def crc32c(data):\n    import zlib\n    return zlib.crc32(data)\n\n\ndef _unused(data):\n")
open(p, "w").write(s)
PY
