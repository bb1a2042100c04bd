"""Stores written with the vendor writer, some entries tampered afterwards; expected decoding."""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import credstore_writer as W  # noqa: E402


def entries(r):
    svc = ["db-prod", "smtp relay", "backup-s3", "ldap-bind", "grafana", "vpn-psk", "jenkins", "root@bmc"]
    out = []
    for n in r.sample(svc, r.randint(4, 7)):
        secret = "".join(r.choice("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%&*+-=") for _ in range(r.randint(8, 40)))
        if r.random() < 0.2:
            secret += "ü€"
        out.append((n, secret))
    return out


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    exp = {}
    for k in range(3):
        ents = entries(r)
        salt = bytes(r.randrange(256) for _ in range(r.choice([8, 12, 16])))
        name = f"store{k}.csv2"
        p = os.path.join(out, name)
        W.write_store(p, ents, salt)
        ok = [True] * len(ents)
        if k == 1:
            # flip a byte inside one entry's encrypted secret
            data = bytearray(open(p, "rb").read())
            off = 4 + 2 + 1 + len(salt) + 2
            j = r.randrange(len(ents))
            for i in range(j):
                nl = data[off]
                off += 1 + nl
                sl = struct.unpack(">H", data[off:off + 2])[0]
                off += 2 + sl + 4
            nl = data[off]
            off += 1 + nl + 2
            data[off] ^= 0x01
            open(p, "wb").write(bytes(data))
            ok[j] = False
            n, s = ents[j]
            b = bytearray(s.encode())
            b[0] ^= 0x01
            ents[j] = (n, b.decode("utf-8", "replace"))
        exp[name] = [{"name": n, "secret": s, "checksum_ok": o} for (n, s), o in zip(ents, ok)]
    return exp
