#!/bin/bash
# Mistake: reads only the extents stored in the inode itself (depth 0); files with more than four extents
# have an index node there instead, so fragmented and sparse files come out empty or wrong.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/extfs_extract.py").read()
old = """                _lblk, lo, hi, _ = struct.unpack("<IIHH", e)
                self.extent_blocks(self.block((hi << 32) | lo), out)"""
assert old in s
open("/app/extfs_extract.py", "w").write(s.replace(old, "                pass"))
PY
python3 /app/extfs_extract.py /data/disk.img /srv/extracted
