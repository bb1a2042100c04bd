"""Minimal JPEG files with EXIF blocks in both byte orders (test side only), and the import they should give."""
import hashlib
import os
import random
import struct
from datetime import datetime, timezone


def ifd(endian, entries, next_off, base):
    """entries: [(tag, type, count, value_bytes)] -> bytes of an IFD placed at offset base (TIFF-relative),
    with out-of-line values appended after it."""
    n = len(entries)
    head = struct.pack(endian + "H", n)
    data_off = base + 2 + 12 * n + 4
    body, extra = b"", b""
    for tag, typ, count, val in sorted(entries):
        if len(val) <= 4:
            body += struct.pack(endian + "HHI", tag, typ, count) + val.ljust(4, b"\0")
        else:
            body += struct.pack(endian + "HHII", tag, typ, count, data_off + len(extra))
            extra += val + (b"\0" if len(val) % 2 else b"")
    return head + body + struct.pack(endian + "I", next_off) + extra


def exif_block(rng, original=None, modified=None, offset=None):
    endian = rng.choice(["<", ">"])
    tiff = (b"II*\0" if endian == "<" else b"MM\0*") + struct.pack(endian + "I", 8)
    asc = lambda s: s.encode() + b"\0"
    ifd0 = [(0x010F, 2, 0, b""), (0x0110, 2, 0, b"")]
    make, model = rng.choice([("Canon", "EOS 80D"), ("NIKON CORPORATION", "NIKON D750"), ("Apple", "iPhone 12")])
    ifd0 = [(0x010F, 2, len(asc(make)), asc(make)), (0x0110, 2, len(asc(model)), asc(model)),
            (0x0112, 3, 1, struct.pack(endian + "H", rng.randint(1, 8)))]
    if modified:
        ifd0.append((0x0132, 2, 20, asc(modified)))
    exif_entries = [(0x829A, 5, 1, struct.pack(endian + "II", 1, rng.choice([60, 125, 250]))),
                    (0x8827, 3, 1, struct.pack(endian + "H", rng.choice([100, 400, 1600])))]
    if original:
        exif_entries.append((0x9003, 2, 20, asc(original)))
        exif_entries.append((0x9004, 2, 20, asc(original)))
    if offset:
        exif_entries.append((0x9011, 2, 7, asc(offset)))
    has_exif_ifd = bool(exif_entries)
    # layout: IFD0 at 8, then the Exif IFD right after IFD0's bytes
    probe = ifd(endian, ifd0 + [(0x8769, 4, 1, b"\0\0\0\0")], 0, 8)
    exif_off = 8 + len(probe)
    ifd0_bytes = ifd(endian, ifd0 + [(0x8769, 4, 1, struct.pack(endian + "I", exif_off))], 0, 8)
    assert len(ifd0_bytes) == len(probe)
    body = tiff + ifd0_bytes + ifd(endian, exif_entries, 0, exif_off)
    payload = b"Exif\0\0" + body
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def segment(marker, payload):
    return b"\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload


def jpeg(rng, original=None, modified=None, offset=None, exif=True):
    parts = [b"\xff\xd8"]
    if rng.random() < 0.7:
        parts.append(segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0"))
    if rng.random() < 0.3:
        parts.append(segment(0xE2, b"ICC_PROFILE\0" + os.urandom(rng.randint(10, 200))))
    if exif:
        parts.append(exif_block(rng, original, modified, offset))
    parts.append(segment(0xDB, bytes(65)))
    parts.append(segment(0xDA, b"\x01\x01\x00\x00\x3f\x00"))
    parts.append(bytes(rng.getrandbits(8) for _ in range(rng.randint(50, 400))).replace(b"\xff", b"\xfe") + b"\xff\xd9")
    return b"".join(parts)


def stamp(dt):
    return dt.strftime("%Y:%m:%d %H:%M:%S")


def random_dt(rng):
    return datetime(rng.randint(2015, 2025), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                    rng.randint(0, 59), rng.randint(0, 59))
