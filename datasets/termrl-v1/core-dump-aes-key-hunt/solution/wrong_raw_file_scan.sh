#!/bin/bash
# Mistake: scans each PT_LOAD segment's file bytes on their own and translates offsets to addresses,
# never joining segments that are adjacent in memory and never adding the zero-filled tails.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/keyhunt.py").read()
old = "            body = data[off:off + filesz] + bytes(max(0, memsz - filesz))"
assert old in s
s = s.replace(old, "            body = data[off:off + filesz]")
old = "        if runs and runs[-1][0] + len(runs[-1][1]) == vaddr:"
assert old in s
s = s.replace(old, "        if False:")
open("/app/keyhunt.py", "w").write(s)
PY
