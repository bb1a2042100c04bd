import hashlib
import os
import struct
import sys
import zlib


def main():
    side, out, copies = sys.argv[1], sys.argv[2], sys.argv[3:]
    raw = open(side, "rb").read()
    assert raw[:4] == b"BSUM"
    _ver, bs, length = struct.unpack_from("<HIQ", raw, 4)
    digest = raw[18:50]
    n = (length + bs - 1) // bs
    crcs = struct.unpack_from(f"<{n}I", raw, 50)
    data = [open(p, "rb").read() for p in copies]
    drift = [0] * len(data)
    blocks = []
    for i, crc in enumerate(crcs):
        size = min(bs, length - i * bs)
        found = None
        # cheapest first: the expected offset in every copy, then a window around it, then the whole copy
        for near in (0, 1500, None):
            for c, buf in enumerate(data):
                base = i * bs + drift[c]
                if near is None:
                    cands = range(0, len(buf) - size + 1)
                else:
                    cands = [base]
                    for d in range(1, near + 1):
                        cands += [base + d, base - d]
                for o in cands:
                    if 0 <= o <= len(buf) - size and zlib.crc32(buf[o:o + size]) == crc:
                        found = buf[o:o + size]
                        drift[c] = o - i * bs
                        break
                if found is not None:
                    break
            if found is not None:
                break
        if found is None:
            print(f"block {i} is damaged in every copy", file=sys.stderr)
            return 1
        blocks.append(found)
    result = b"".join(blocks)
    if hashlib.sha256(result).digest() != digest:
        print("whole-file checksum mismatch", file=sys.stderr)
        return 1
    with open(out + ".tmp", "wb") as f:
        f.write(result)
    os.replace(out + ".tmp", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
