"""AES key expansion and a generator of ELF core files with planted key schedules (test-side only)."""
import os
import struct


def _sbox():
    def mul(a, b):
        r = 0
        while b:
            if b & 1:
                r ^= a
            a = ((a << 1) ^ 0x11B) if a & 0x80 else a << 1
            b >>= 1
        return r
    box = []
    for x in range(256):
        inv = next((y for y in range(1, 256) if mul(x, y) == 1), 0) if x else 0
        s = inv
        for i in range(1, 5):
            s ^= ((inv << i) | (inv >> (8 - i))) & 0xFF
        box.append(s ^ 0x63)
    return bytes(box)


SBOX = _sbox()
RCON = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36]


def expand(key):
    nk = len(key) // 4
    words = [list(key[4 * i:4 * i + 4]) for i in range(nk)]
    total = 4 * (nk + 7)
    for i in range(nk, total):
        t = list(words[i - 1])
        if i % nk == 0:
            t = [SBOX[b] for b in t[1:] + t[:1]]
            t[0] ^= RCON[i // nk - 1]
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        words.append([a ^ b for a, b in zip(words[i - nk], t)])
    return bytes(b for w in words for b in w)


class Core:
    """Memory = list of segments (vaddr, bytearray data, memsz).  Planting edits the data in place."""

    def __init__(self, rng, elf32=False):
        self.rng = rng
        self.elf32 = elf32
        self.segs = []          # [vaddr, bytearray, memsz]
        self.expected = []      # (vaddr, bits, keyhex)
        self.file_junk = []     # byte strings placed in the file outside every segment

    def rand(self, n):
        rng = self.rng
        kind = rng.randrange(3)
        if kind == 0:
            return bytearray(rng.getrandbits(8) for _ in range(n))
        if kind == 1:   # text-like
            words = [b"malloc", b"session", b"GET /", b"HTTP/1.1", b"user=", b"\x00\x00\x00\x00", b"/usr/lib/", b"token"]
            out = bytearray()
            while len(out) < n:
                out += rng.choice(words) + bytes([rng.getrandbits(8)])
            return out[:n]
        out = bytearray(n)          # sparse: mostly zeros with pointers
        for i in range(0, n - 8, 8):
            if rng.random() < 0.3:
                out[i:i + 8] = struct.pack("<Q", 0x7F0000000000 + rng.getrandbits(32))
        return out

    def add_segment(self, vaddr, size, memsz=None):
        seg = [vaddr, self.rand(size), memsz if memsz is not None else size]
        self.segs.append(seg)
        return seg

    def write_at(self, vaddr, data):
        """Write bytes into memory at vaddr; may cross into the next adjacent segment."""
        for seg in sorted(self.segs):
            start, buf = seg[0], seg[1]
            lo, hi = max(vaddr, start), min(vaddr + len(data), start + len(buf))
            if lo < hi:
                buf[lo - start:hi - start] = data[lo - vaddr:hi - vaddr]

    def key(self, bits):
        return bytes(self.rng.getrandbits(8) for _ in range(bits // 8))

    def plant(self, vaddr, bits, key=None):
        key = key or self.key(bits)
        self.write_at(vaddr, expand(key))
        self.expected.append((vaddr, bits, key.hex()))
        return key

    def spot(self, seg, length):
        start, buf = seg[0], seg[1]
        return start + self.rng.randrange(0, len(buf) - length)

    def to_bytes(self):
        rng = self.rng
        e32 = self.elf32
        ehsize, phsize = (52, 32) if e32 else (64, 56)
        nph = len(self.segs) + 1
        note = bytearray(b"CORE\x00\x00\x00\x00") + self.rand(rng.randint(200, 600))
        for junk in self.file_junk[:1]:
            note += junk
        off = ehsize + phsize * nph
        blobs = [("note", note)]
        order = list(range(len(self.segs)))
        rng.shuffle(order)
        blobs += [(i, self.segs[i][1]) for i in order]
        layout, body = {}, bytearray()
        cur = off
        for name, blob in blobs:
            pad = self.rand(rng.randint(0, 300))
            if name != "note" and self.file_junk[1:] and rng.random() < 0.7:
                pad += self.file_junk.pop()
            body += pad
            cur += len(pad)
            layout[name] = cur
            body += blob
            cur += len(blob)
        for junk in self.file_junk[1:]:
            body += junk
        ph = bytearray()
        ptype = [(4, 0, layout["note"], 0, len(note), 0, 4)]
        idx = list(range(len(self.segs)))
        rng.shuffle(idx)
        for i in idx:
            v, buf, memsz = self.segs[i]
            ptype.append((1, rng.choice([4, 5, 6]), layout[i], v, len(buf), memsz, 0x1000))
        for t, flags, o, v, fsz, msz, al in ptype:
            if e32:
                ph += struct.pack("<IIIIIIII", t, o, v, v, fsz, msz, flags, al)
            else:
                ph += struct.pack("<IIQQQQQQ", t, flags, o, v, v, fsz, msz, al)
        ident = b"\x7fELF" + bytes([1 if e32 else 2, 1, 1, 0]) + bytes(8)
        if e32:
            hdr = ident + struct.pack("<HHIIIIIHHHHHH", 4, 3, 1, 0, ehsize, 0, 0, ehsize, phsize, nph, 40, 0, 0)
        else:
            hdr = ident + struct.pack("<HHIQQQIHHHHHH", 4, 62, 1, 0, ehsize, 0, 0, ehsize, phsize, nph, 64, 0, 0)
        assert len(hdr) == ehsize
        return bytes(hdr + ph + body)

    def answer(self):
        return sorted(({"vaddr": v, "bits": b, "key": k} for v, b, k in self.expected),
                      key=lambda e: (e["vaddr"], e["bits"]))
