"""Writes OpenSSH user/host certificates, trusted CA keys and a binary KRL (OpenSSH PROTOCOL.krl layout)
by hand, plus the expected audit. Signatures are random bytes (the audit does not check them)."""
import base64
import hashlib
import os
import random
import struct
from datetime import datetime, timezone

FOREVER = 0xFFFFFFFFFFFFFFFF


def s(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def u32(v):
    return struct.pack(">I", v)


def u64(v):
    return struct.pack(">Q", v)


def mpint(v):
    if v == 0:
        return s(b"")
    b = v.to_bytes((v.bit_length() + 7) // 8, "big")
    if b[0] & 0x80:
        b = b"\0" + b
    return s(b)


def fp(blob):
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Key:
    def __init__(self, r, kind):
        self.kind = kind
        if kind == "ssh-ed25519":
            self.fields = s(bytes(r.randrange(256) for _ in range(32)))
        elif kind == "ssh-rsa":
            n = r.getrandbits(2048) | (1 << 2047) | 1
            self.fields = mpint(65537) + mpint(n)
        else:
            self.fields = s("nistp256") + s(b"\x04" + bytes(r.randrange(256) for _ in range(64)))
        self.kind_name = "ecdsa-sha2-nistp256" if kind == "ecdsa" else kind
        self.blob = s(self.kind_name) + self.fields

    def line(self, comment):
        return f"{self.kind_name} {base64.b64encode(self.blob).decode()} {comment}\n"


def cert(r, key, ca, serial, ctype, key_id, principals, after, before, crit, exts):
    name = key.kind_name + "-cert-v01@openssh.com"
    opts = b"".join(s(k) + s(s(v) if v is not None else b"") for k, v in sorted(crit.items()))
    ext = b"".join(s(k) + s(b"") for k in sorted(exts))
    body = (s(name) + s(bytes(r.randrange(256) for _ in range(32))) + key.fields + u64(serial) + u32(ctype)
            + s(key_id) + s(b"".join(s(p) for p in principals)) + u64(after) + u64(before) + s(opts) + s(ext)
            + s(b"") + s(ca.blob))
    sig = s(s("ssh-ed25519") + s(bytes(r.randrange(256) for _ in range(64))))
    return f"{name} {base64.b64encode(body + sig).decode()} {key_id}\n"


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(os.path.join(out, "certs"), exist_ok=True)
    now = 1785000000 + r.randint(0, 10_000_000)
    ca_users, ca_hosts, ca_old, ca_rogue = (Key(r, "ssh-ed25519") for _ in range(4))
    with open(os.path.join(out, "trusted_ca.pub"), "w") as f:
        f.write("# TrustedUserCAKeys\n" + ca_users.line("users-ca@corp") + ca_hosts.line("hosts-ca@corp")
                + ca_old.line("users-ca-2019@corp (retired)"))
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(4, 7)))  # noqa: E731
    plan = []   # (file, key, ca, serial, type, keyid, principals, after, before, crit, exts, expect_status, by)
    ser = iter(r.sample(range(100, 5000), 40))
    bitmap_base = r.randint(6000, 7000)

    def add(tag, status, by=None, ca=ca_users, ctype=1, serial=None, kind=None, after=None, before=None,
            crit=None, principals=None):
        k = Key(r, kind or r.choice(["ssh-ed25519", "ssh-ed25519", "ssh-rsa", "ecdsa"]))
        user = word()
        plan.append({"file": f"{user}-{tag}-cert.pub", "key": k, "ca": ca, "serial": next(ser) if serial is None else serial,
                     "type": ctype, "key_id": f"{user}@corp-{tag}", "principals": principals if principals is not None else [user, "deploy"][:r.randint(1, 2)],
                     "after": now - r.randint(86400, 86400 * 90) if after is None else after,
                     "before": now + r.randint(86400, 86400 * 90) if before is None else before,
                     "crit": crit or {}, "exts": ["permit-pty", "permit-port-forwarding"][:r.randint(0, 2)],
                     "status": status, "by": by})
        return plan[-1]

    add("ok1", "ok")
    add("ok2", "ok", crit={"force-command": "/usr/local/bin/backup-only", "source-address": "10.1.0.0/16,10.2.3.4"})
    add("forever", "ok", after=0, before=FOREVER)
    add("host", "ok", ca=ca_hosts, ctype=2, principals=[f"{word()}.corp.example", "10.0.0.7"])
    add("expired", "expired", before=now - r.randint(100, 86400 * 30))
    add("early", "not-yet-valid", after=now + r.randint(100, 86400 * 10))
    add("edge", "expired", before=now)                                 # `before` itself is already expired
    add("rogue", "untrusted-ca", ca=ca_rogue)
    rs = add("rserial", "revoked", "serial")
    rr_lo = r.randint(8000, 9000)
    rr = add("rrange", "revoked", "serial", serial=rr_lo + r.randint(0, 20))
    rb = add("rbitmap", "revoked", "serial", serial=bitmap_base + 64 + r.randint(0, 40))
    nb = add("nobit", "ok", serial=rb["serial"] + 1)                    # bit clear in the bitmap
    ri = add("rkeyid", "revoked", "key-id")
    rk = add("rkey", "revoked", "key")
    rf = add("rfpr", "revoked", "key")
    old = add("oldca", "revoked", "ca-key", ca=ca_old)
    other = add("otherca", "ok", ca=ca_hosts, ctype=2, serial=rs["serial"], principals=[f"{word()}.corp.example"])
    anyca = add("anyca", "revoked", "key-id", ca=ca_hosts, ctype=2, principals=[f"{word()}.corp.example"])
    # an expired certificate that is also revoked reports revoked
    add("expiredrev", "revoked", "serial", serial=rr_lo + 21 if rr["serial"] != rr_lo + 21 else rr_lo + 22,
        before=now - 5000)

    # KRL
    def section(t, data):
        return bytes([t]) + s(data)
    users_cert = section(0x20, u64(rs["serial"]) + u64(r.randint(20000, 30000)))
    users_cert += section(0x21, u64(rr_lo) + u64(rr_lo + 22))
    bits = 0
    for k in range(0, 120):
        if bitmap_base + k != nb["serial"] and r.random() < 0.3:
            bits |= 1 << k
    bits |= 1 << (rb["serial"] - bitmap_base)
    bits &= ~(1 << (nb["serial"] - bitmap_base))
    users_cert += section(0x22, u64(bitmap_base) + mpint(bits))
    users_cert += section(0x23, s(ri["key_id"]) + s("nobody@corp-x"))
    krl = u64(0x5353484B524C0A00) + u32(1) + u64(r.randint(2, 90)) + u64(now - 3600) + u64(0) + s(b"") + s("corp KRL")
    krl += section(1, s(ca_users.blob) + s(b"") + users_cert)
    krl += section(1, s(b"") + s(b"") + section(0x23, s(anyca["key_id"])))
    krl += section(2, s(rk["key"].blob) + s(Key(r, "ssh-ed25519").blob))
    krl += section(5, s(hashlib.sha256(rf["key"].blob).digest()) + s(hashlib.sha256(ca_old.blob).digest()))
    with open(os.path.join(out, "revoked.krl"), "wb") as f:
        f.write(krl)
    # bitmap serials that are set must only be the ones expected: make sure no other planned cert collides
    for p in plan:
        if p["ca"] is ca_users and p["status"] == "ok":
            off = p["serial"] - bitmap_base
            assert not (0 <= off < 120 and bits >> off & 1), p["file"]
            assert not rr_lo <= p["serial"] <= rr_lo + 22

    exp = []
    for p in plan:
        with open(os.path.join(out, "certs", p["file"]), "w") as f:
            f.write(cert(r, p["key"], p["ca"], p["serial"], p["type"], p["key_id"], p["principals"], p["after"],
                         p["before"], p["crit"], p["exts"]))
        exp.append({"file": p["file"], "type": "user" if p["type"] == 1 else "host",
                    "key_type": p["key"].kind_name, "key_id": p["key_id"], "serial": p["serial"],
                    "principals": p["principals"], "ca": fp(p["ca"].blob),
                    "valid_after": iso(p["after"]) if p["after"] else None,
                    "valid_before": iso(p["before"]) if p["before"] != FOREVER else None,
                    "force_command": p["crit"].get("force-command"),
                    "source_address": p["crit"].get("source-address"),
                    "status": p["status"], "revoked_by": p["by"]})
    # a stray public key and a README in certs/
    with open(os.path.join(out, "certs", "notes.txt"), "w") as f:
        f.write("certificates collected from /etc/ssh and ~/.ssh on the bastion\n")
    with open(os.path.join(out, "certs", f"{word()}.pub"), "w") as f:
        f.write(Key(r, "ssh-ed25519").line("plain key, not a certificate"))
    exp.sort(key=lambda e: e["file"])
    return iso(now), exp
