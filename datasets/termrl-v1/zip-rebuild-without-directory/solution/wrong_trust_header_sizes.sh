#!/bin/bash
# Mistake: always trusts the sizes in the local header (zero for data-descriptor entries) and loses sync.
set -euo pipefail
mkdir -p /app/restored
python3 - <<'PY'
import calendar, json, os, struct, zlib
raw = open("/app/incoming/project.zip", "rb").read()
restored, damaged, pos = [], [], 0
while raw[pos:pos + 4] == b"PK\x03\x04":
    (_, _, flags, method, dtime, ddate, crc, csize, usize, nlen, xlen) = struct.unpack_from("<IHHHHHIIIHH", raw, pos)
    name = raw[pos + 30:pos + 30 + nlen].decode("utf-8" if flags & 0x800 else "cp437")
    start = pos + 30 + nlen + xlen
    comp = raw[start:start + csize]
    pos = start + csize
    if name.endswith("/"):
        os.makedirs("/app/restored/" + name, exist_ok=True); continue
    try:
        data = zlib.decompress(comp, -15) if method == 8 else comp
    except zlib.error:
        damaged.append(name); continue
    if zlib.crc32(data) & 0xFFFFFFFF != crc:
        damaged.append(name); continue
    p = "/app/restored/" + name
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "wb").write(data)
    y, mo, d = (ddate >> 9) + 1980, (ddate >> 5) & 15, ddate & 31
    ts = calendar.timegm((y, mo, d, dtime >> 11, (dtime >> 5) & 63, (dtime & 31) * 2, 0, 0, 0))
    os.utime(p, (ts, ts)); restored.append(name)
json.dump({"restored": sorted(restored), "damaged": sorted(damaged)}, open("/app/restore_report.json", "w"))
PY
