#!/bin/bash
# Mistake: decompresses only the first IDAT chunk (a streaming decoder that stops early), so images
# whose data is split over several chunks fail.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/stegx.py").read()
old = "    raw = zlib.decompress(b\"\".join(idat))"
assert old in s
s = s.replace(old, "    raw = zlib.decompressobj().decompress(idat[0])")
open("/app/stegx.py", "w").write(s)
PY
