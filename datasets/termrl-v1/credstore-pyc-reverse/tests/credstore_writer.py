"""Vendor credential-store writer (shipped to the agent only as bytecode)."""
import hashlib
import os
import struct
import zlib

_K = bytes.fromhex("13375eed") + b"vault/legacy#2"


def _stream(salt, idx, n):
    out = b""
    blk = 0
    while len(out) < n:
        out += hashlib.sha256(salt + _K + idx.to_bytes(2, "big") + blk.to_bytes(4, "little")).digest()
        blk += 1
    return out[:n]


def _pack_entry(salt, idx, name, secret):
    nb, sb = name.encode(), secret.encode()
    ks = _stream(salt, idx, len(sb))
    enc = bytes(a ^ b for a, b in zip(sb, ks))
    crc = zlib.crc32(nb + b"\0" + sb) ^ 0xA5A5A5A5
    tag = bytes(reversed(nb))
    return struct.pack("<B", len(tag)) + tag + struct.pack(">H", len(enc)) + enc + struct.pack("<I", crc)


def write_store(path, entries, salt=None):
    salt = salt if salt is not None else os.urandom(12)
    body = b"".join(_pack_entry(salt, i, n, s) for i, (n, s) in enumerate(entries))
    with open(path, "wb") as f:
        f.write(b"CSv2" + struct.pack("<H", 2) + bytes([len(salt)]) + salt + struct.pack("<H", len(entries)) + body)
