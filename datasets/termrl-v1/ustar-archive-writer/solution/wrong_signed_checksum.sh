#!/bin/bash
# Signed checksum (breaks non-ASCII names) and sorts children by str instead of bytes.
set -euo pipefail
cat > /app/mktar.py <<'PY'
import os
import stat
import sys


class TarError(Exception):
    pass


def octal(value, width):
    s = format(value, "o")
    if len(s) > width - 1:
        raise TarError("numeric field overflow")
    return s.rjust(width - 1, "0").encode() + b"\0"


def split_name(path):
    b = path.encode()
    if len(b) <= 100:
        return b, b""
    for i in range(len(b) - 1, -1, -1):
        if b[i:i + 1] == b"/":
            prefix, name = b[:i], b[i + 1:]
            if len(name) <= 100 and len(prefix) <= 155 and name:
                return name, prefix
    raise TarError(f"path too long: {path}")


def header(path, st, typeflag, size, linkname=b""):
    name, prefix = split_name(path)
    if len(linkname) > 100:
        raise TarError(f"link target too long: {path}")
    h = bytearray(512)
    def put(off, data):
        h[off:off + len(data)] = data
    put(0, name)
    put(100, octal(stat.S_IMODE(st.st_mode), 8))
    put(108, octal(st.st_uid, 8))
    put(116, octal(st.st_gid, 8))
    put(124, octal(size, 12))
    put(136, octal(int(st.st_mtime), 12))
    put(148, b" " * 8)
    put(156, typeflag)
    put(157, linkname)
    put(257, b"ustar\0")
    put(263, b"00")
    put(345, prefix)
    chk = sum((x - 256 if x > 127 else x) for x in h)
    put(148, format(chk, "o").rjust(6, "0").encode() + b"\0 ")
    return bytes(h)


def entries(path):
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        yield path, st, b"2"
    elif stat.S_ISDIR(st.st_mode):
        yield path.rstrip("/") + "/", st, b"5"
        for child in sorted(os.listdir(path)):
            yield from entries(os.path.join(path, child))
    elif stat.S_ISREG(st.st_mode):
        yield path, st, b"0"


def build(paths):
    out = bytearray()
    for p in paths:
        if not os.path.lexists(p):
            raise TarError(f"no such file: {p}")
        for name, st, t in entries(p):
            if t == b"0":
                data = open(name, "rb").read()
                out += header(name, st, t, len(data))
                out += data + b"\0" * (-len(data) % 512)
            elif t == b"2":
                out += header(name, st, t, 0, os.readlink(name).encode())
            else:
                out += header(name, st, t, 0)
    out += b"\0" * 1024
    out += b"\0" * (-len(out) % 10240)
    return bytes(out)


def main(argv):
    if len(argv) < 2:
        print("usage: mktar.py OUT.tar PATH...", file=sys.stderr)
        return 1
    try:
        data = build(argv[1:])
    except (TarError, OSError) as e:
        print(f"mktar: {e}", file=sys.stderr)
        return 1
    with open(argv[0], "wb") as f:
        f.write(data)
    return 0


sys.exit(main(sys.argv[1:]))
PY
