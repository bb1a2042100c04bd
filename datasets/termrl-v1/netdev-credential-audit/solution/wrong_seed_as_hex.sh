#!/bin/bash
# Wrong: reads the two-digit type 7 offset as hexadecimal.
set -e
cat > /app/credaudit <<'PY'
#!/usr/bin/env python3
import base64
import glob
import hashlib
import hmac
import json
import os
import re
import sys
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)
import crypt  # noqa: E402

K = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"
TR = str.maketrans("./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def dec7(x):
    s = int(x[:2], 16)
    raw = bytes(int(x[i:i + 2], 16) ^ ord(K[(s + (i - 2) // 2) % 53]) for i in range(2, len(x), 2))
    return raw.decode("utf-8", "replace")


def unb64(h):
    h = h.translate(TR)
    return base64.b64decode(h + "=" * (-len(h) % 4))


def verify(typ, h, pw):
    if typ == "5":
        try:
            return hmac.compare_digest(crypt.crypt(pw, h) or "", h)
        except ValueError:   # e.g. a NUL in the candidate
            return False
    _, _, salt, dig = h.split("$", 3)
    want = unb64(dig)
    if typ == "8":
        got = hashlib.pbkdf2_hmac("sha256", pw.encode(), salt.encode(), 20000, 32)
    else:
        got = hashlib.scrypt(pw.encode(), salt=salt.encode(), n=16384, r=1, p=1, dklen=32)
    return hmac.compare_digest(got, want)


def creds_of(dev, text):
    out, block, banner = [], "", None
    for no, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if banner is not None:
            if banner in line:
                banner = None
            continue
        f = line.split()
        if not f:
            continue
        if not line.startswith(" "):
            block = line.strip()
        if f[0] == "banner" and len(f) >= 3:
            d = f[2][:2]
            rest = line.split(d, 1)[1] if d in line else ""
            if d not in rest:
                banner = d
            continue

        def add(ctx, typ, x):
            out.append({"device": dev, "line": no, "context": ctx, "type": typ, "x": x})
        if f[0] == "enable" and len(f) >= 3 and f[1] in ("secret", "password"):
            if f[1] == "secret":
                add("enable", f[2], f[-1])
            else:
                add("enable", "7" if len(f) >= 4 and f[2] == "7" else "0", f[-1])
        elif f[0] == "username" and len(f) >= 4:
            name = f[1]
            i = 2
            if f[i] == "privilege":
                i += 2
            if i < len(f) and f[i] == "secret":
                add(f"username {name}", f[i + 1], f[-1])
            elif i < len(f) and f[i] == "password":
                add(f"username {name}", "7" if len(f) - i == 3 and f[i + 1] == "7" else "0", f[-1])
        elif f[0] == "snmp-server" and len(f) >= 3 and f[1] == "community":
            add("snmp-server community", "0", f[2])
        elif f[0] == "ntp" and len(f) >= 5 and f[1] == "authentication-key" and f[3] == "md5":
            add(f"ntp authentication-key {f[2]}", "7" if len(f) >= 6 and f[5] == "7" else "0", f[4])
        elif line.startswith(" "):
            if block.startswith("line ") and f[0] == "password" and len(f) >= 2:
                add(block, "7" if len(f) == 3 and f[1] == "7" else "0", f[-1])
            elif block.startswith("tacacs server ") and f[0] == "key" and len(f) >= 2:
                add(block, "7" if len(f) == 3 and f[1] == "7" else "0", f[-1])
            elif (block.startswith("interface ") and f[:3] == ["ip", "ospf", "message-digest-key"]
                  and len(f) >= 6 and f[4] == "md5"):
                add(f"{block} ospf key {f[3]}", "7" if len(f) == 7 and f[5] == "7" else "0", f[-1])
    return out


def main(cfgdir, wl):
    creds = []
    for p in sorted(glob.glob(os.path.join(cfgdir, "*.cfg"))):
        dev = os.path.basename(p)[:-4]
        creds += creds_of(dev, open(p, encoding="utf-8").read())
    words = [w.rstrip("\r") for w in open(wl, encoding="utf-8").read().split("\n") if w.rstrip("\r")]
    for c in creds:
        c["secret"] = c["x"] if c["type"] == "0" else dec7(c["x"]) if c["type"] == "7" else None
    cands = list(dict.fromkeys(words + [c["secret"] for c in creds if c["type"] in ("0", "7")]))
    for c in creds:
        if c["type"] in ("5", "8", "9"):
            c["secret"] = next((w for w in cands if verify(c["type"], c["x"], w)), None)
    known = [c["secret"] for c in creds if c["secret"] is not None]
    wset = set(words)
    res = []
    for c in sorted(creds, key=lambda c: (c["device"], c["line"])):
        s, t, f = c["secret"], c["type"], []
        if t in ("0", "7"):
            f.append("reversible")
        if t == "5":
            f.append("weak-hash")
        if t in ("5", "8", "9") and s is not None:
            f.append("cracked")
        if s is not None and s in wset:
            f.append("in-wordlist")
        if s is not None and known.count(s) > 1:
            f.append("reused")
        res.append({"device": c["device"], "line": c["line"], "context": c["context"], "type": t, "secret": s,
                    "findings": sorted(f)})
    json.dump(res, sys.stdout, indent=1)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/credaudit
