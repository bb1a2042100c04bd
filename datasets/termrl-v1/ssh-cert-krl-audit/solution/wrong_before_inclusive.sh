#!/bin/bash
# Wrong: treats valid_before as the last valid second (expired only when AT > valid_before).
set -e
cat > /app/certaudit <<'PY'
#!/usr/bin/env python3
import base64
import hashlib
import json
import os
import struct
import sys
from datetime import datetime, timezone


class R:
    def __init__(self, b):
        self.b, self.i = b, 0

    def u32(self):
        v = struct.unpack_from(">I", self.b, self.i)[0]
        self.i += 4
        return v

    def u64(self):
        v = struct.unpack_from(">Q", self.b, self.i)[0]
        self.i += 8
        return v

    def byte(self):
        self.i += 1
        return self.b[self.i - 1]

    def s(self):
        n = self.u32()
        v = self.b[self.i:self.i + n]
        self.i += n
        return v

    def mpint(self):
        return int.from_bytes(self.s(), "big", signed=True)

    def more(self):
        return self.i < len(self.b)


def strings(b):
    r, out = R(b), []
    while r.more():
        out.append(r.s())
    return out


KEYFIELDS = {"ssh-ed25519": ["s"], "ssh-rsa": ["s", "s"], "ecdsa-sha2-nistp256": ["s", "s"]}


def fp(blob):
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_cert(raw):
    r = R(raw)
    ctype = r.s().decode()
    base = ctype[:-len("-cert-v01@openssh.com")]
    r.s()                                             # nonce
    start = r.i
    for _ in KEYFIELDS[base]:
        r.s()
    pub = struct.pack(">I", len(base)) + base.encode() + raw[start:r.i]
    c = {"key_type": base, "pub": pub, "serial": r.u64(), "type": r.u32(), "key_id": r.s().decode()}
    c["principals"] = [p.decode() for p in strings(r.s())]
    c["after"], c["before"] = r.u64(), r.u64()
    crit = strings(r.s())
    c["crit"] = {crit[k].decode(): R(crit[k + 1]).s().decode() if crit[k + 1] else ""
                 for k in range(0, len(crit) - 1, 2)}
    r.s()
    r.s()
    c["ca"] = r.s()
    return c


def parse_krl(b):
    r = R(b)
    assert r.u64() == 0x5353484B524C0A00
    r.u32(), r.u64(), r.u64(), r.u64(), r.s(), r.s()
    keys, fps, certsecs = set(), set(), []
    while r.more():
        t = r.byte()
        data = r.s()
        if t == 1:
            q = R(data)
            ca = q.s()
            q.s()
            sec = {"ca": ca, "serials": set(), "ranges": [], "ids": set()}
            while q.more():
                st = q.byte()
                sd = R(q.s())
                if st == 0x20:
                    while sd.more():
                        sec["serials"].add(sd.u64())
                elif st == 0x21:
                    sec["ranges"].append((sd.u64(), sd.u64()))
                elif st == 0x22:
                    off, bits = sd.u64(), sd.mpint()
                    k = 0
                    while bits >> k:
                        if bits >> k & 1:
                            sec["serials"].add(off + k)
                        k += 1
                elif st == 0x23:
                    while sd.more():
                        sec["ids"].add(sd.s().decode())
            certsecs.append(sec)
        elif t == 2:
            keys.update(strings(data))
        elif t == 5:
            fps.update(strings(data))
    return keys, fps, certsecs


def main(d, at):
    at = int(datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())
    trusted = set()
    for line in open(os.path.join(d, "trusted_ca.pub")):
        f = line.split()
        if len(f) >= 2 and not f[0].startswith("#"):
            trusted.add(base64.b64decode(f[1]))
    keys, fps, secs = parse_krl(open(os.path.join(d, "revoked.krl"), "rb").read())
    revoked_key = lambda blob: blob in keys or hashlib.sha256(blob).digest() in fps  # noqa: E731
    out = []
    for name in sorted(os.listdir(os.path.join(d, "certs"))):
        p = os.path.join(d, "certs", name)
        try:
            f = open(p).read().split()
        except (UnicodeDecodeError, IsADirectoryError):
            continue
        if len(f) < 2 or not f[0].endswith("-cert-v01@openssh.com"):
            continue
        c = parse_cert(base64.b64decode(f[1]))
        mine = [x for x in secs if x["ca"] in (b"", c["ca"])]
        by = None
        if revoked_key(c["ca"]):
            by = "ca-key"
        elif revoked_key(c["pub"]):
            by = "key"
        elif any(c["serial"] in x["serials"] or any(a <= c["serial"] <= b for a, b in x["ranges"]) for x in mine):
            by = "serial"
        elif any(c["key_id"] in x["ids"] for x in mine):
            by = "key-id"
        if c["ca"] not in trusted:
            st, by = "untrusted-ca", None
        elif by:
            st = "revoked"
        elif at > c["before"]:
            st = "expired"
        elif at < c["after"]:
            st = "not-yet-valid"
        else:
            st = "ok"
        out.append({"file": name, "type": {1: "user", 2: "host"}.get(c["type"], str(c["type"])),
                    "key_type": c["key_type"], "key_id": c["key_id"], "serial": c["serial"],
                    "principals": c["principals"], "ca": fp(c["ca"]),
                    "valid_after": iso(c["after"]) if c["after"] else None,
                    "valid_before": iso(c["before"]) if c["before"] != 0xFFFFFFFFFFFFFFFF else None,
                    "force_command": c["crit"].get("force-command"),
                    "source_address": c["crit"].get("source-address"), "status": st, "revoked_by": by})
    json.dump(out, sys.stdout, indent=1)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/certaudit
