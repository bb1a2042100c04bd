#!/bin/bash
# Wrong: takes the newest signature on the user IDs as the self-signature, whoever issued it.
set -e
cat > /app/pgpaudit <<'PY'
#!/usr/bin/env python3
import hashlib
import json
import struct
import sys
from datetime import datetime, timezone

ED25519 = bytes.fromhex("2B06010401DA470F01")
CV25519 = bytes.fromhex("2B060104019755010501")


def packets(data):
    i = 0
    while i < len(data):
        b = data[i]
        if b & 0x40:
            tag = b & 0x3F
            a = data[i + 1]
            if a < 192:
                n, h = a, 2
            elif a < 224:
                n, h = (a - 192) * 256 + data[i + 2] + 192, 3
            else:
                n, h = struct.unpack_from(">I", data, i + 2)[0], 6
        else:
            tag, lt = (b >> 2) & 0xF, b & 3
            if lt == 0:
                n, h = data[i + 1], 2
            elif lt == 1:
                n, h = struct.unpack_from(">H", data, i + 1)[0], 3
            else:
                n, h = struct.unpack_from(">I", data, i + 1)[0], 5
        yield tag, data[i + h:i + h + n]
        i += h + n


def mpi(b, i):
    bits = struct.unpack_from(">H", b, i)[0]
    n = (bits + 7) // 8
    return bits, i + 2 + n


def key_info(body):
    created = struct.unpack_from(">I", body, 1)[0]
    algo = body[5]
    if algo in (1, 16, 17):
        bits, _ = mpi(body, 6)
        name = {1: "rsa", 16: "elg", 17: "dsa"}[algo] + str(bits)
    else:
        ln = body[6]
        oid = body[7:7 + ln]
        name = "ed25519" if oid == ED25519 else "cv25519" if oid == CV25519 else f"algo{algo}"
    fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(body)) + body).digest()
    return {"created": created, "algo": name, "algo_id": algo, "bits": bits if algo in (1, 16, 17) else None,
            "fpr": fpr}


def subpackets(b):
    i, out = 0, []
    while i < len(b):
        a = b[i]
        if a < 192:
            n, h = a, 1
        elif a < 255:
            n, h = (a - 192) * 256 + b[i + 1] + 192, 2
        else:
            n, h = struct.unpack_from(">I", b, i + 1)[0], 5
        body = b[i + h:i + h + n]
        out.append((body[0] & 0x7F, body[1:]))
        i += h + n
    return out


def sig_info(body):
    t, halgo = body[1], body[3]
    hl = struct.unpack_from(">H", body, 4)[0]
    hashed = subpackets(body[6:6 + hl])
    ul = struct.unpack_from(">H", body, 6 + hl)[0]
    unhashed = subpackets(body[8 + hl:8 + hl + ul])
    s = {"type": t, "hash": halgo, "created": None, "expire": None, "flags": None, "issuer_id": None,
         "issuer_fpr": None}
    for typ, d in hashed + unhashed:
        if typ == 2:
            s["created"] = struct.unpack(">I", d[:4])[0]
        elif typ == 9 and s["expire"] is None:
            s["expire"] = struct.unpack(">I", d[:4])[0]
        elif typ == 27 and d:
            s["flags"] = d[0]
        elif typ == 16:
            s["issuer_id"] = d[:8]
        elif typ == 33:
            s["issuer_fpr"] = d[1:21]
    return s


def by(s, key):
    return s["issuer_fpr"] == key["fpr"] or s["issuer_id"] == key["fpr"][-8:]


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def usage(flags):
    if flags is None:
        return ""
    return "".join(c for c, m in (("C", 1), ("S", 2), ("E", 12), ("A", 32)) if flags & m)


def main(path, at):
    at = int(datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())
    keys, cur, where = [], None, None
    for tag, body in packets(open(path, "rb").read()):
        if tag == 6:
            cur = {"key": key_info(body), "uids": [], "self": [], "revoked": False, "subs": []}
            keys.append(cur)
            where = "key"
        elif cur is None:
            continue
        elif tag == 13:
            cur["uids"].append(body.decode("utf-8", "replace"))
            where = "uid"
        elif tag == 14:
            cur["subs"].append({"key": key_info(body), "bind": [], "revoked": False})
            where = "sub"
        elif tag == 2 and body[0] == 4:
            s = sig_info(body)
            if not by(s, cur["key"]) and where != "uid":
                continue
            if where == "key" and s["type"] == 0x20:
                cur["revoked"] = True
            elif where == "uid" and 0x10 <= s["type"] <= 0x13:
                cur["self"].append(s)
            elif where == "sub" and s["type"] == 0x18:
                cur["subs"][-1]["bind"].append(s)
            elif where == "sub" and s["type"] == 0x28:
                cur["subs"][-1]["revoked"] = True
    out = []
    for k in keys:
        key = k["key"]
        latest = max(k["self"], key=lambda s: s["created"] or 0) if k["self"] else None
        exp = key["created"] + latest["expire"] if latest and latest["expire"] else None
        st = "revoked" if k["revoked"] else "expired" if exp is not None and at >= exp else "valid"
        subs = []
        for sb in k["subs"]:
            b = max(sb["bind"], key=lambda s: s["created"] or 0) if sb["bind"] else None
            se = sb["key"]["created"] + b["expire"] if b and b["expire"] else None
            subs.append({"fingerprint": sb["key"]["fpr"].hex().upper(), "algo": sb["key"]["algo"],
                         "created": iso(sb["key"]["created"]), "expires": iso(se) if se else None,
                         "usage": usage(b["flags"] if b else None),
                         "status": "revoked" if sb["revoked"] else "expired" if se is not None and at >= se
                         else "valid"})
        f = []
        if key["algo_id"] in (16, 17) or (key["algo_id"] == 1 and key["bits"] < 2048):
            f.append("weak-algorithm")
        if latest and latest["hash"] == 2:
            f.append("sha1-self-signature")
        if exp is None:
            f.append("no-expiry")
        out.append({"fingerprint": key["fpr"].hex().upper(), "algo": key["algo"], "created": iso(key["created"]),
                    "expires": iso(exp) if exp else None, "status": st, "uids": k["uids"], "subkeys": subs,
                    "findings": sorted(f)})
    out.sort(key=lambda e: e["fingerprint"])
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/pgpaudit
