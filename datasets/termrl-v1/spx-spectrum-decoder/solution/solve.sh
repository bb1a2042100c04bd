#!/bin/bash
set -euo pipefail
# Format, as recovered from the samples (all little-endian):
#   "SPX\x1a" u8 version u8 flags(bit0: dark frame follows) u16 header_len
#   header (header_len bytes): u32 seconds since 2000-01-01Z, u8 name_len, name, f32 integration ms,
#       u16 channels, 3 x f64 wavelength polynomial c0 c1 c2, [v2: f32 detector temperature], reserved bytes
#   counts: zigzag varint deltas (from 0), one per channel; [dark frame: the same]; u32 CRC-32 of all before
cat > /app/spx2csv.py <<'PY'
import datetime
import struct
import sys
import zlib

EPOCH = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)


def fail(msg):
    print(f"spx2csv: {msg}", file=sys.stderr)
    sys.exit(2)


def varints(buf, pos, n):
    out, prev = [], 0
    for _ in range(n):
        z, shift = 0, 0
        while True:
            if pos >= len(buf):
                fail("truncated data")
            b = buf[pos]
            pos += 1
            z |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        d = (z >> 1) if not z & 1 else -((z + 1) >> 1)
        prev += d
        out.append(prev)
    return out, pos


def main():
    if len(sys.argv) != 3:
        fail("usage: spx2csv.py IN.spx OUT.csv")
    with open(sys.argv[1], "rb") as fh:
        blob = fh.read()
    if len(blob) < 12 or blob[:4] != b"SPX\x1a":
        fail("not an .spx file")
    body, (crc,) = blob[:-4], struct.unpack("<I", blob[-4:])
    if zlib.crc32(body) & 0xFFFFFFFF != crc:
        fail("checksum mismatch")
    version, flags = body[4], body[5]
    (hlen,) = struct.unpack_from("<H", body, 6)
    p = 8
    (ts,) = struct.unpack_from("<I", body, p)
    nlen = body[p + 4]
    name = body[p + 5:p + 5 + nlen].decode("latin-1")
    q = p + 5 + nlen
    ms, n, c0, c1, c2 = struct.unpack_from("<fH3d", body, q)
    q += struct.calcsize("<fH3d")
    temp = struct.unpack_from("<f", body, q)[0] if version >= 2 else None
    counts, pos = varints(body, p + hlen, n)
    if flags & 1:
        dark, pos = varints(body, pos, n)
        counts = [c - d for c, d in zip(counts, dark)]
    when = (EPOCH + datetime.timedelta(seconds=ts)).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = [f"# instrument: {name}", f"# acquired: {when}", f"# integration_ms: {ms:.3f}"]
    if temp is not None:
        lines.append(f"# detector_temp_c: {temp:.2f}")
    lines.append("wavelength_nm,counts,rate_cps")
    for i, c in enumerate(counts):
        lines.append(f"{c0 + c1 * i + c2 * i * i:.4f},{c},{c / (ms / 1000.0):.2f}")
    with open(sys.argv[2], "w") as fh:
        fh.write("\n".join(lines) + "\n")


main()
PY
