#!/bin/bash
# Mistake: always reads 32-byte group descriptors (the ext2 size), but 64-bit ext4 uses the superblock's
# s_desc_size (64), so inode tables of every group after the first are looked up in the wrong place.
set -euo pipefail
sed 's/self.dsize = struct.unpack_from("<H", sb, 254)\[0\] if incompat \& 0x80 else 32/self.dsize = 32/' \
  /solution/extfs_extract.py > /app/extfs_extract.py
grep -q "self.dsize = 32$" /app/extfs_extract.py
python3 /app/extfs_extract.py /data/disk.img /srv/extracted || true
