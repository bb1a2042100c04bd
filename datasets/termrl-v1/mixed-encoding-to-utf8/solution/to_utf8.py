#!/usr/bin/env python3
"""Convert a tree of mixed-encoding texts (and legacy file names) to UTF-8 NFC, in place."""
import os
import sys
import unicodedata


def legacy(b: bytes) -> str:
    try:
        return b.decode("cp1252")
    except UnicodeDecodeError:
        return b.decode("latin-1")


def name_text(b: bytes) -> str:
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        s = legacy(b)
    return unicodedata.normalize("NFC", s)


def detect(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if data.startswith(b"\xff\xfe"):
        return "utf-16-le"
    if data.startswith(b"\xfe\xff"):
        return "utf-16-be"
    if b"\x00" in data:
        return "binary"
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return "latin-1"


def decode(data: bytes, enc: str) -> str:
    if enc == "utf-8-sig":
        return data[3:].decode("utf-8")
    if enc in ("utf-16-le", "utf-16-be"):
        return data[2:].decode(enc)
    return data.decode(enc)


def convert(path: bytes) -> str:
    with open(path, "rb") as f:
        data = f.read()
    enc = detect(data)
    if enc == "binary":
        return enc
    text = decode(data, enc).replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFC", text)
    st = os.stat(path)
    with open(path, "wb") as f:
        f.write(text.encode("utf-8"))
    os.chmod(path, st.st_mode & 0o7777)
    os.utime(path, (st.st_atime, int(st.st_mtime)))
    return enc


def walk(d: bytes, rel: str, out: list) -> None:
    for raw in sorted(os.listdir(d)):
        new = name_text(raw)
        src = os.path.join(d, raw)
        dst = os.path.join(d, new.encode("utf-8"))
        if dst != src:
            os.rename(src, dst)
        r = f"{rel}/{new}" if rel else new
        if os.path.islink(dst):
            continue
        if os.path.isdir(dst):
            walk(dst, r, out)
        elif os.path.isfile(dst):
            out.append((r, convert(dst)))


def main() -> int:
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: to-utf8 DIR", file=sys.stderr)
        return 2
    out: list = []
    walk(os.fsencode(sys.argv[1]), "", out)
    for r, enc in sorted(out):
        sys.stdout.write(f"{enc}\t{r}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
