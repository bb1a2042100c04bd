import calendar
import json
import os
import struct
import zlib

raw = open("/app/incoming/project.zip", "rb").read()
OUT = "/app/restored"
restored, damaged = [], []
pos = 0
while raw[pos:pos + 4] == b"PK\x03\x04":
    (_, _, flags, method, dtime, ddate, crc, csize, usize, nlen, xlen) = struct.unpack_from("<IHHHHHIIIHH", raw, pos)
    name = raw[pos + 30:pos + 30 + nlen].decode("utf-8" if flags & 0x800 else "cp437")
    start = pos + 30 + nlen + xlen
    data = None
    if flags & 0x08:
        if method == 8:
            d = zlib.decompressobj(-15)
            data = d.decompress(raw[start:])
            end = len(raw) - len(d.unused_data)
        else:
            end = None
            i = start
            while True:
                i = raw.find(b"PK\x07\x08", i)
                if i < 0:
                    break
                c, cs, us = struct.unpack_from("<III", raw, i + 4)
                if cs == i - start and zlib.crc32(raw[start:i]) & 0xFFFFFFFF == c:
                    end = i
                    break
                i += 1
            data = raw[start:end]
        if raw[end:end + 4] == b"PK\x07\x08":
            crc, csize, usize = struct.unpack_from("<III", raw, end + 4)
            nxt = end + 16
        else:
            crc, csize, usize = struct.unpack_from("<III", raw, end)
            nxt = end + 12
    else:
        comp = raw[start:start + csize]
        nxt = start + csize
        try:
            data = zlib.decompress(comp, -15) if method == 8 else comp
        except zlib.error:
            data = None
    y, mo, dd = (ddate >> 9) + 1980, (ddate >> 5) & 15, ddate & 31
    h, mi, s = dtime >> 11, (dtime >> 5) & 63, (dtime & 31) * 2
    ts = calendar.timegm((y, mo, dd, h, mi, s, 0, 0, 0))
    path = os.path.join(OUT, name)
    if name.endswith("/"):
        os.makedirs(path, exist_ok=True)
    elif data is not None and len(data) == usize and zlib.crc32(data) & 0xFFFFFFFF == crc:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
        os.utime(path, (ts, ts))
        restored.append(name)
    else:
        damaged.append(name)
    pos = nxt
json.dump({"restored": sorted(restored), "damaged": sorted(damaged)}, open("/app/restore_report.json", "w"),
          indent=2, ensure_ascii=False)
