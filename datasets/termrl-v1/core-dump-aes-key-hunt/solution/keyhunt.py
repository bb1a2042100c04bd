#!/usr/bin/env python3
"""Find complete AES key schedules in the memory image of an ELF core file."""
import json
import struct
import sys


def make_sbox():
    def gmul(a, b):
        r = 0
        while b:
            if b & 1:
                r ^= a
            a = ((a << 1) ^ 0x11B) if a & 0x80 else a << 1
            b >>= 1
        return r
    inv = [0] * 256
    for x in range(1, 256):
        for y in range(1, 256):
            if gmul(x, y) == 1:
                inv[x] = y
                break
    box = []
    for x in range(256):
        b = inv[x]
        s = b
        for i in range(1, 5):
            s ^= ((b << i) | (b >> (8 - i))) & 0xFF
        box.append(s ^ 0x63)
    return box


SBOX = make_sbox()
RCON = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36]


def expand(key):
    nk = len(key) // 4
    w = [list(key[4 * i:4 * i + 4]) for i in range(nk)]
    for i in range(nk, 4 * (nk + 7)):
        t = list(w[i - 1])
        if i % nk == 0:
            t = [SBOX[b] for b in t[1:] + t[:1]]
            t[0] ^= RCON[i // nk - 1]
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        w.append([a ^ b for a, b in zip(w[i - nk], t)])
    return bytes(b for word in w for b in word)


def memory_runs(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF":
        sys.exit("not an ELF file")
    e32 = data[4] == 1
    if e32:
        phoff, = struct.unpack_from("<I", data, 28)
        phentsize, phnum = struct.unpack_from("<HH", data, 42)
    else:
        phoff, = struct.unpack_from("<Q", data, 32)
        phentsize, phnum = struct.unpack_from("<HH", data, 54)
    segs = []
    for i in range(phnum):
        at = phoff + i * phentsize
        if e32:
            ptype, off, vaddr, _, filesz, memsz, _, _ = struct.unpack_from("<IIIIIIII", data, at)
        else:
            ptype, _, off, vaddr, _, filesz, memsz, _ = struct.unpack_from("<IIQQQQQQ", data, at)
        if ptype == 1 and memsz:
            body = data[off:off + filesz] + bytes(max(0, memsz - filesz))
            segs.append((vaddr, body[:memsz]))
    segs.sort()
    runs = []
    for vaddr, body in segs:
        if runs and runs[-1][0] + len(runs[-1][1]) == vaddr:
            runs[-1][1].extend(body)
        else:
            runs.append([vaddr, bytearray(body)])
    return runs


def scan(base, mem):
    found = []
    n = len(mem)
    sb = SBOX
    for nk, bits in ((4, 128), (6, 192), (8, 256)):
        size = 16 * (nk + 7)
        span = 4 * nk
        for o in range(0, n - size + 1):
            # first derived word: w[nk] = w[0] ^ SubWord(RotWord(w[nk-1])) ^ Rcon[0]
            p = o + span
            if mem[p] != mem[o] ^ sb[mem[p - 3]] ^ 1:
                continue
            if mem[p + 1] != mem[o + 1] ^ sb[mem[p - 2]] or mem[p + 2] != mem[o + 2] ^ sb[mem[p - 1]] \
                    or mem[p + 3] != mem[o + 3] ^ sb[mem[p - 4]]:
                continue
            key = bytes(mem[o:o + span])
            if expand(key) == mem[o:o + size]:
                found.append({"vaddr": base + o, "bits": bits, "key": key.hex()})
    return found


def main(path):
    out = []
    for base, mem in memory_runs(path):
        out += scan(base, mem)
    out.sort(key=lambda e: (e["vaddr"], e["bits"]))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(sys.argv[1])
