"""Makes an original image, its block-checksum sidecar and damaged copies (seeded)."""
import hashlib
import os
import random
import struct
import sys
import zlib


def original(rng, size):
    parts = []
    while sum(map(len, parts)) < size:
        r = rng.random()
        if r < 0.4:
            parts.append(rng.randbytes(rng.randrange(100, 5000)))
        elif r < 0.7:
            parts.append(bytes(rng.randrange(50, 3000)))
        else:
            rec = b"rec=%06d;val=%d;" % (rng.randrange(10 ** 6), rng.randrange(10 ** 9))
            parts.append(rec * rng.randrange(5, 80))
    return b"".join(parts)[:size]


def sidecar(data, bs):
    crcs = [zlib.crc32(data[i:i + bs]) for i in range(0, len(data), bs)]
    return (b"BSUM" + struct.pack("<HIQ", 1, bs, len(data)) + hashlib.sha256(data).digest()
            + struct.pack(f"<{len(crcs)}I", *crcs))


def damage_block(rng, block):
    kind = rng.choice(["flip", "zero", "insert", "delete", "insert"])
    b = bytearray(block)
    if kind == "flip" or len(b) < 8:
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        return bytes(b)
    i = rng.randrange(len(b) - 4)
    n = rng.randrange(1, min(700, len(b) - i))
    if kind == "zero":
        chg = bytes(n) if any(b[i:i + n]) else b"\xff" * n
        return bytes(b[:i]) + chg + bytes(b[i + n:])
    if kind == "insert":
        return bytes(b[:i]) + rng.randbytes(n) + bytes(b[i:])
    return bytes(b[:i]) + bytes(b[i + n:])


def copies(rng, data, bs, ncopies, unrecoverable=False):
    nblocks = (len(data) + bs - 1) // bs
    cut = rng.randrange(nblocks // 2, nblocks - 1)   # the last copy is cut short inside block `cut`
    damaged = [set() for _ in range(ncopies)]
    damaged[-1].update(range(cut, nblocks))
    for i in range(nblocks):
        for c in rng.sample(range(ncopies), ncopies):
            free = sum(1 for d in damaged if i not in d)
            if free > 1 and rng.random() < 0.18:
                damaged[c].add(i)
    bad = None
    if unrecoverable:
        bad = rng.randrange(1, cut)
        for d in damaged:
            d.add(bad)
    out = []
    for c in range(ncopies):
        buf = []
        for i in range(nblocks):
            blk = data[i * bs:(i + 1) * bs]
            if c == ncopies - 1 and i == cut:
                buf.append(blk[:rng.randrange(1, len(blk))])
                break
            buf.append(damage_block(rng, blk) if i in damaged[c] else blk)
        out.append(b"".join(buf))
    return out, bad


def make(dirpath, seed, size, bs, ncopies=3, unrecoverable=False):
    rng = random.Random(seed)
    data = original(rng, size)
    os.makedirs(dirpath, exist_ok=True)
    with open(os.path.join(dirpath, "image.bsum"), "wb") as f:
        f.write(sidecar(data, bs))
    cs, bad = copies(rng, data, bs, ncopies, unrecoverable)
    paths = []
    for k, c in enumerate(cs):
        p = os.path.join(dirpath, f"copy-{'abcdefgh'[k]}.img")
        with open(p, "wb") as f:
            f.write(c)
        paths.append(p)
    return data, paths


if __name__ == "__main__":
    make(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
