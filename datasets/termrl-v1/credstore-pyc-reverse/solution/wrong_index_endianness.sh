#!/bin/bash
# Wrong: encodes the entry index little-endian in the keystream input.
set -e
cat > /app/credread <<'PY'
#!/usr/bin/env python3
import glob
import hashlib
import json
import os
import struct
import sys
import zlib

K = bytes.fromhex("13375eed") + b"vault/legacy#2"


def stream(salt, idx, n):
    out, blk = b"", 0
    while len(out) < n:
        out += hashlib.sha256(salt + K + idx.to_bytes(2, "little") + blk.to_bytes(4, "little")).digest()
        blk += 1
    return out[:n]


def read(p):
    d = open(p, "rb").read()
    assert d[:4] == b"CSv2"
    off = 6
    sl = d[off]
    salt = d[off + 1:off + 1 + sl]
    off += 1 + sl
    count = struct.unpack_from("<H", d, off)[0]
    off += 2
    out = []
    for i in range(count):
        nl = d[off]
        nb = bytes(reversed(d[off + 1:off + 1 + nl]))
        off += 1 + nl
        ln = struct.unpack_from(">H", d, off)[0]
        enc = d[off + 2:off + 2 + ln]
        off += 2 + ln
        crc = struct.unpack_from("<I", d, off)[0]
        off += 4
        sb = bytes(a ^ b for a, b in zip(enc, stream(salt, i, ln)))
        out.append({"name": nb.decode("utf-8", "replace"), "secret": sb.decode("utf-8", "replace"),
                    "checksum_ok": (zlib.crc32(nb + b"\0" + sb) ^ 0xA5A5A5A5) == crc})
    return out


res = {os.path.basename(p): read(p) for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.csv2")))}
json.dump(res, sys.stdout, indent=1, ensure_ascii=False)
print()
PY
chmod +x /app/credread
