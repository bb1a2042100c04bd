#!/bin/bash
# Mistake: takes the low bit of every sample, alpha included, for RGBA images.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/stegx.py").read()
old = "            bits.extend((line[i] & 1, line[i + 1] & 1, line[i + 2] & 1))"
assert old in s
s = s.replace(old, "            bits.extend(line[i + k] & 1 for k in range(bpp))")
open("/app/stegx.py", "w").write(s)
PY
