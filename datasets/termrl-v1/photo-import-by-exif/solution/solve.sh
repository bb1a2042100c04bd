#!/bin/bash
# Reference: walk the JPEG segments to APP1/Exif, read the TIFF IFDs in either byte order, then copy.
set -euo pipefail
cat > /app/import_photos.py <<'PY'
#!/usr/bin/env python3
"""import_photos.py SRC_DIR DEST_DIR: copy JPEGs into DEST/YYYY/MM/YYYYMMDD_HHMMSS[_N].jpg by capture time."""
import os
import re
import shutil
import struct
import sys
from datetime import datetime, timezone
from pathlib import Path


def exif_times(data):
    """-> (DateTimeOriginal, DateTime) strings or None."""
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker in (0xD9, 0xDA):
            break
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        seg = data[i + 4:i + 2 + length]
        if marker == 0xE1 and seg.startswith(b"Exif\0\0"):
            return parse_tiff(seg[6:])
        i += 2 + length
    return None, None


def parse_tiff(t):
    e = "<" if t[:2] == b"II" else ">"

    def entries(off):
        n = struct.unpack(e + "H", t[off:off + 2])[0]
        for k in range(n):
            p = off + 2 + 12 * k
            tag, typ, count = struct.unpack(e + "HHI", t[p:p + 8])
            yield tag, typ, count, p + 8

    def ascii_at(typ, count, vp):
        off = vp if count <= 4 else struct.unpack(e + "I", t[vp:vp + 4])[0]
        return t[off:off + count].split(b"\0")[0].decode("ascii", "replace")

    original = modified = None
    exif_ifd = None
    for tag, typ, count, vp in entries(struct.unpack(e + "I", t[4:8])[0]):
        if tag == 0x0132:
            modified = ascii_at(typ, count, vp)
        elif tag == 0x8769:
            exif_ifd = struct.unpack(e + "I", t[vp:vp + 4])[0]
    if exif_ifd:
        for tag, typ, count, vp in entries(exif_ifd):
            if tag == 0x9003:
                original = ascii_at(typ, count, vp)
    return original, modified


def capture_time(path, data):
    for s in exif_times(data):
        if s:
            try:
                return datetime.strptime(s.strip(), "%Y:%m:%d %H:%M:%S")
            except ValueError:
                pass
    return datetime.fromtimestamp(int(os.stat(path).st_mtime), tz=timezone.utc).replace(tzinfo=None)


def main(src, dst):
    src, dst = Path(src), Path(dst)
    files = sorted((p for p in src.rglob("*") if p.is_file() and p.suffix.lower() in (".jpg", ".jpeg")),
                   key=lambda p: p.relative_to(src).as_posix())
    for p in files:
        rel = p.relative_to(src).as_posix()
        data = p.read_bytes()
        if not data.startswith(b"\xff\xd8"):
            print(f"{rel} skipped: not a JPEG")
            continue
        t = capture_time(p, data)
        folder = dst / f"{t:%Y}" / f"{t:%m}"
        base = f"{t:%Y%m%d_%H%M%S}"
        n, target = 1, None
        while True:
            name = f"{base}.jpg" if n == 1 else f"{base}_{n}.jpg"
            cand = folder / name
            if not cand.exists():
                target = cand
                break
            if cand.read_bytes() == data:
                print(f"{rel} duplicate of {cand.relative_to(dst).as_posix()}")
                break
            n += 1
        if target is not None:
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, target)
            print(f"{rel} -> {target.relative_to(dst).as_posix()}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/import_photos.py
