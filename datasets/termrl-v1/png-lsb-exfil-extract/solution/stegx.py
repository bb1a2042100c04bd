#!/usr/bin/env python3
"""Extract files hidden in the low bits of PNG screenshots."""
import json
import os
import struct
import sys
import zlib

SIG = b"\x89PNG\r\n\x1a\n"


def decode(data):
    if data[:8] != SIG:
        return None
    pos, ihdr, idat = 8, None, []
    while pos + 8 <= len(data):
        ln, typ = struct.unpack_from(">I4s", data, pos)
        body = data[pos + 8:pos + 8 + ln]
        pos += 12 + ln
        if typ == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body[:13])
        elif typ == b"IDAT":
            idat.append(body)
        elif typ == b"IEND":
            break
    if not ihdr:
        return None
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace != 0:
        return None
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 0xFF
            elif f == 2:
                line[x] = (line[x] + b) & 0xFF
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 0xFF
        rows.append(line)
        prev = line
    return rows, bpp


def hidden_bytes(rows, bpp):
    bits = []
    for line in rows:
        for i in range(0, len(line), bpp):
            bits.extend((line[i] & 1, line[i + 1] & 1, line[i + 2] & 1))
    out = bytearray()
    for i in range(0, len(bits) - 7, 8):
        v = 0
        for b in bits[i:i + 8]:
            v = (v << 1) | b
        out.append(v)
    return bytes(out)


def main(indir, outdir):
    os.makedirs(outdir, exist_ok=True)
    report = []
    for fn in sorted(os.listdir(indir)):
        path = os.path.join(indir, fn)
        if not fn.lower().endswith(".png") or not os.path.isfile(path) or os.path.islink(path):
            continue
        entry = {"image": fn, "status": "unsupported", "name": None, "size": None}
        report.append(entry)
        try:
            dec = decode(open(path, "rb").read())
        except (zlib.error, struct.error, IndexError):
            dec = None
        if dec is None:
            continue
        s = hidden_bytes(*dec)
        entry["status"] = "no-payload"
        if s[:4] != b"XF01" or len(s) < 5:
            continue
        nl = s[4]
        if len(s) < 5 + nl + 4:
            continue
        name = s[5:5 + nl].decode("utf-8", "replace")
        n, = struct.unpack_from(">I", s, 5 + nl)
        start = 9 + nl
        if start + n + 4 > len(s):
            continue
        payload = s[start:start + n]
        crc, = struct.unpack_from(">I", s, start + n)
        if zlib.crc32(payload) != crc:
            entry["status"] = "bad-crc"
            continue
        base = name.replace("\\", "/").split("/")[-1]
        if base in ("", ".", ".."):
            base = fn[:-4] + ".bin"
        with open(os.path.join(outdir, base), "wb") as fh:
            fh.write(payload)
        entry.update(status="extracted", name=base, size=n)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
