"""Writes an OpenPGP (RFC 4880, v4) public keyring by hand: primary keys, user IDs, self-signatures with
subpackets, subkeys with binding signatures, revocations and third-party certifications, in old- and
new-format packet framing. Signature MPIs are random (signatures are not verified). Returns the
expected audit."""
import hashlib
import random
import struct
from datetime import datetime, timezone

ED25519_OID = bytes.fromhex("2B06010401DA470F01")
CV25519_OID = bytes.fromhex("2B060104019755010501")


def mpi(v):
    return struct.pack(">H", v.bit_length()) + v.to_bytes((v.bit_length() + 7) // 8, "big")


def packet(r, tag, body, fmt=None):
    fmt = fmt or r.choice(["old", "new"])
    n = len(body)
    if fmt == "old" and tag < 16:
        if n < 256:
            return bytes([0x80 | tag << 2 | 0, n]) + body
        if n < 65536:
            return bytes([0x80 | tag << 2 | 1]) + struct.pack(">H", n) + body
        return bytes([0x80 | tag << 2 | 2]) + struct.pack(">I", n) + body
    h = bytes([0xC0 | tag])
    if n < 192:
        h += bytes([n])
    elif n < 8384:
        n2 = n - 192
        h += bytes([(n2 >> 8) + 192, n2 & 0xFF])
    else:
        h += b"\xff" + struct.pack(">I", n)
    return h + body


def subpacket(r, typ, data, critical=False):
    body = bytes([typ | (0x80 if critical else 0)]) + data
    n = len(body)
    if n < 192 and r.random() < 0.8:
        return bytes([n]) + body
    if n < 8384 and r.random() < 0.7:
        n2 = n - 192
        if n >= 192:
            return bytes([(n2 >> 8) + 192, n2 & 0xFF]) + body
        return bytes([n]) + body
    return b"\xff" + struct.pack(">I", n) + body


class Key:
    def __init__(self, r, algo, bits, created):
        self.algo, self.bits, self.created = algo, bits, created
        body = bytes([4]) + struct.pack(">I", created)
        if algo == "rsa":
            n = r.getrandbits(bits) | (1 << (bits - 1)) | 1
            body += bytes([1]) + mpi(n) + mpi(65537)
            self.name = f"rsa{bits}"
        elif algo == "dsa":
            body += bytes([17]) + mpi(r.getrandbits(bits) | 1 << (bits - 1)) + mpi(r.getrandbits(160) | 1 << 159) \
                + mpi(r.getrandbits(bits - 3) | 1) + mpi(r.getrandbits(bits - 2) | 1)
            self.name = f"dsa{bits}"
        elif algo == "elg":
            body += bytes([16]) + mpi(r.getrandbits(bits) | 1 << (bits - 1)) + mpi(2) + mpi(r.getrandbits(bits - 1) | 1)
            self.name = f"elg{bits}"
        elif algo == "ed25519":
            body += bytes([22, len(ED25519_OID)]) + ED25519_OID + mpi((0x40 << 256) | r.getrandbits(256))
            self.name = "ed25519"
        else:
            body += bytes([18, len(CV25519_OID)]) + CV25519_OID + mpi((0x40 << 256) | r.getrandbits(256)) \
                + bytes([3, 1, 8, 7])
            self.name = "cv25519"
        self.body = body
        self.fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(body)) + body).digest()
        self.keyid = self.fpr[-8:]


def sig(r, sigtype, issuer, created, hashalgo=8, expire=None, flags=None, primary_uid=False, issuer_where=None,
        extra_unhashed=b""):
    hashed = subpacket(r, 2, struct.pack(">I", created))
    where = issuer_where or r.choice(["hashed-fpr", "unhashed-id", "both"])
    unhashed = b""
    if where in ("hashed-fpr", "both"):
        hashed += subpacket(r, 33, b"\x04" + issuer.fpr)
    if expire is not None:
        hashed += subpacket(r, 9, struct.pack(">I", expire))
    if flags is not None:
        hashed += subpacket(r, 27, bytes([flags]))
    if primary_uid:
        hashed += subpacket(r, 25, b"\x01")
    if r.random() < 0.3:
        hashed += subpacket(r, 11, bytes([9, 8, 7]))          # preferred symmetric algorithms
    if where in ("unhashed-id", "both"):
        unhashed += subpacket(r, 16, issuer.keyid)
    unhashed += extra_unhashed
    pk = 1 if issuer.algo == "rsa" else 17 if issuer.algo == "dsa" else 22
    body = bytes([4, sigtype, pk, hashalgo]) + struct.pack(">H", len(hashed)) + hashed \
        + struct.pack(">H", len(unhashed)) + unhashed + bytes([r.randrange(256), r.randrange(256)])
    body += mpi(r.getrandbits(2040) | 1 << 2039) if pk == 1 else mpi(r.getrandbits(255) | 1 << 254) * 2
    return packet(r, 2, body)


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def build(seed, path):
    r = random.Random(seed)
    now = 1790000000 + r.randint(0, 20_000_000)
    Y = 365 * 86400
    out, exp = b"", []
    names = ["Alice Example", "Bob Ops", "Carol Release", "Dave Legacy", "Erin Build", "Frank Old", "Grace Sec"]
    r.shuffle(names)
    other = Key(r, "rsa", 2048, now - 5 * Y)                     # a third party that certifies some UIDs
    specs = [
        # (algo, bits, age, expire_after or None, revoked, sub specs, hash, extra)
        ("ed25519", 0, 2 * Y, 5 * Y, False, [("cv25519", 0, "E", 5 * Y, False)], 10, "ok"),
        ("rsa", 4096, 3 * Y, None, False, [("rsa", 4096, "E", 4 * Y, False), ("rsa", 4096, "S", 1 * Y, False)], 8, "ok"),
        ("rsa", 2048, 4 * Y, 2 * Y, False, [("rsa", 2048, "E", None, False)], 8, "expired"),
        ("dsa", 1024, 12 * Y, None, False, [("elg", 2048, "E", None, False)], 2, "legacy"),
        ("rsa", 3072, 2 * Y, 4 * Y, True, [("rsa", 3072, "E", 4 * Y, False)], 8, "revoked"),
        ("ed25519", 0, 1 * Y, 3 * Y, False, [("cv25519", 0, "E", 3 * Y, True), ("ed25519", 0, "A", 1 * Y, False)], 10,
         "subrevoked"),
        ("rsa", 1024, 15 * Y, None, False, [], 2, "weak"),
    ]
    for (algo, bits, age, expire, revoked, subs, halgo, tag), name in zip(specs, names):
        created = now - age - r.randint(0, 86400 * 30)
        k = Key(r, algo, bits, created)
        out += packet(r, 6, k.body)
        kexp = None
        if revoked:
            out += sig(r, 0x20, k, now - r.randint(86400, 86400 * 100), halgo,
                       extra_unhashed=subpacket(r, 29, b"\x02key compromised"))
        uids = [f"{name} <{name.split()[0].lower()}@example.org>"]
        if r.random() < 0.6:
            uids.append(f"{name} (work) <{name.split()[0].lower()}@corp.example>")
        for ui, u in enumerate(uids):
            out += packet(r, 13, u.encode())
            # an older self-signature with a different expiry, then the current one
            if ui == 0 and expire is not None:
                out += sig(r, 0x13, k, created + 10, halgo, expire=expire // 2, flags=0x03)
            t = created + 100 + ui
            out += sig(r, r.choice([0x10, 0x13]), k, t, halgo, expire=expire, flags=0x03, primary_uid=ui == 0)
            if r.random() < 0.5:
                out += sig(r, 0x10, other, t + 5000, 8)                         # certification by someone else
            if expire is not None:
                kexp = created + expire
        if r.random() < 0.5:
            out += packet(r, 12, b"\x00\x78")                               # trust packet (keyring bookkeeping)
        sub_out = []
        for salgo, sbits, usage, sexp, srev in subs:
            sc = created + r.randint(1000, 86400 * 200)
            sk = Key(r, salgo, sbits, sc)
            out += packet(r, 14, sk.body)
            fl = {"S": 0x02, "E": 0x0C, "A": 0x20}[usage]
            out += sig(r, 0x18, k, sc + 60, halgo, expire=sexp, flags=fl)
            if srev:
                out += sig(r, 0x28, k, now - r.randint(86400, 86400 * 50), halgo)
            se = sc + sexp if sexp is not None else None
            st = "revoked" if srev else "expired" if se is not None and now >= se else "valid"
            sub_out.append({"fingerprint": sk.fpr.hex().upper(), "algo": sk.name, "created": iso(sc),
                            "expires": iso(se) if se else None, "usage": usage, "status": st})
        status = "revoked" if revoked else "expired" if kexp is not None and now >= kexp else "valid"
        f = []
        if algo in ("dsa", "elg") or (algo == "rsa" and bits < 2048):
            f.append("weak-algorithm")
        if halgo == 2:
            f.append("sha1-self-signature")
        if kexp is None:
            f.append("no-expiry")
        exp.append({"fingerprint": k.fpr.hex().upper(), "algo": k.name, "created": iso(created),
                    "expires": iso(kexp) if kexp else None, "status": status, "uids": uids, "subkeys": sub_out,
                    "findings": sorted(f)})
    with open(path, "wb") as fh:
        fh.write(out)
    exp.sort(key=lambda e: e["fingerprint"])
    return iso(now), exp
