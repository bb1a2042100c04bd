import os
import struct
import sys

EXTENTS_FL = 0x80000


class FS:
    def __init__(self, path):
        self.f = open(path, "rb")
        sb = self.read(1024, 1024)
        assert struct.unpack_from("<H", sb, 56)[0] == 0xEF53, "not an ext2/3/4 file system"
        self.bs = 1024 << struct.unpack_from("<I", sb, 24)[0]
        self.first_data = struct.unpack_from("<I", sb, 20)[0]
        self.ipg = struct.unpack_from("<I", sb, 40)[0]
        rev = struct.unpack_from("<I", sb, 76)[0]
        self.isize = struct.unpack_from("<H", sb, 88)[0] if rev >= 1 else 128
        incompat = struct.unpack_from("<I", sb, 96)[0]
        self.dsize = struct.unpack_from("<H", sb, 254)[0] if incompat & 0x80 else 32
        if self.dsize < 32:
            self.dsize = 32
        self.gdt = (self.first_data + 1) * self.bs

    def read(self, off, n):
        self.f.seek(off)
        return self.f.read(n)

    def block(self, b):
        return self.read(b * self.bs, self.bs)

    def inode(self, ino):
        g, i = divmod(ino - 1, self.ipg)
        d = self.read(self.gdt + g * self.dsize, self.dsize)
        table = struct.unpack_from("<I", d, 8)[0]
        if self.dsize >= 64:
            table |= struct.unpack_from("<I", d, 0x28)[0] << 32
        return self.read(table * self.bs + i * self.isize, self.isize)

    def extent_blocks(self, data, out):
        magic, entries, _max, depth = struct.unpack_from("<HHHH", data, 0)
        assert magic == 0xF30A, "bad extent header"
        for k in range(entries):
            e = data[12 + 12 * k: 24 + 12 * k]
            if depth == 0:
                lblk, length, hi, lo = struct.unpack("<IHHI", e)
                uninit = length > 32768
                if uninit:
                    length -= 32768
                start = (hi << 32) | lo
                for j in range(length):
                    out[lblk + j] = None if uninit else start + j
            else:
                _lblk, lo, hi, _ = struct.unpack("<IIHH", e)
                self.extent_blocks(self.block((hi << 32) | lo), out)

    def indirect(self, b, level, out, base):
        per = self.bs // 4
        if b == 0:
            return
        ptrs = struct.unpack(f"<{per}I", self.block(b))
        span = per ** (level - 1)
        for k, p in enumerate(ptrs):
            if p == 0:
                continue
            if level == 1:
                out[base + k] = p
            else:
                self.indirect(p, level - 1, out, base + k * span)

    def block_map(self, ino_data):
        flags = struct.unpack_from("<I", ino_data, 32)[0]
        iblock = ino_data[40:100]
        out = {}
        if flags & EXTENTS_FL:
            self.extent_blocks(iblock, out)
            return out
        ptrs = struct.unpack("<15I", iblock)
        per = self.bs // 4
        for k in range(12):
            if ptrs[k]:
                out[k] = ptrs[k]
        self.indirect(ptrs[12], 1, out, 12)
        self.indirect(ptrs[13], 2, out, 12 + per)
        self.indirect(ptrs[14], 3, out, 12 + per + per * per)
        return out

    def content(self, ino_data):
        size = struct.unpack_from("<I", ino_data, 4)[0] | (struct.unpack_from("<I", ino_data, 108)[0] << 32)
        bmap = self.block_map(ino_data)
        nblocks = (size + self.bs - 1) // self.bs
        parts = []
        for k in range(nblocks):
            b = bmap.get(k)
            parts.append(self.block(b) if b else bytes(self.bs))
        return b"".join(parts)[:size]

    def entries(self, ino_data):
        data = self.content(ino_data)
        pos = 0
        while pos + 8 <= len(data):
            ino, rec_len, name_len = struct.unpack_from("<IHB", data, pos)
            if rec_len < 8:
                break
            if ino:
                name = data[pos + 8: pos + 8 + name_len]
                if name not in (b".", b".."):
                    yield name, ino
            pos += rec_len


def extract(fs, ino, dest, seen, top=False):
    data = fs.inode(ino)
    dirs = []
    for name, child in fs.entries(data):
        if top and name == b"lost+found":
            continue
        p = os.path.join(dest, os.fsdecode(name))
        cd = fs.inode(child)
        mode = struct.unpack_from("<H", cd, 0)[0]
        mtime = struct.unpack_from("<I", cd, 16)[0]
        kind = mode & 0xF000
        if kind == 0x4000:
            os.mkdir(p)
            extract(fs, child, p, seen)
            dirs.append((p, mode, mtime))
        elif kind == 0xA000:
            size = struct.unpack_from("<I", cd, 4)[0]
            flags = struct.unpack_from("<I", cd, 32)[0]
            if size < 60 and not flags & EXTENTS_FL:
                target = cd[40:40 + size]
            else:
                target = fs.content(cd)
            os.symlink(os.fsdecode(target), p)
        elif kind == 0x8000:
            if child in seen:
                os.link(seen[child], p)
                continue
            with open(p, "wb") as f:
                f.write(fs.content(cd))
            os.chmod(p, mode & 0o7777)
            os.utime(p, (mtime, mtime))
            seen[child] = p
    for p, mode, mtime in dirs:
        os.chmod(p, mode & 0o7777)
        os.utime(p, (mtime, mtime))


def main():
    image, dest = sys.argv[1], sys.argv[2]
    fs = FS(image)
    os.makedirs(dest, exist_ok=True)
    extract(fs, 2, dest, {}, top=True)


if __name__ == "__main__":
    main()
