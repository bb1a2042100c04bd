#!/bin/bash
# Wrong: loads the file into a dict, so a later duplicate entry overrides the first one.
set -e
cat > /app/htcheck <<'PY'
#!/usr/bin/env python3
import base64
import hashlib
import hmac
import re
import sys
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)
import crypt  # noqa: E402

ITOA = b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def to64(v, n):
    out = bytearray()
    for _ in range(n):
        out.append(ITOA[v & 0x3F])
        v >>= 6
    return bytes(out)


def md5_crypt(pw, salt, magic):
    salt = salt[:8]
    alt = hashlib.md5(pw + salt + pw).digest()
    ctx = pw + magic + salt
    n = len(pw)
    while n > 0:
        ctx += alt[:min(16, n)]
        n -= 16
    i = len(pw)
    while i:
        ctx += b"\0" if i & 1 else pw[:1]
        i >>= 1
    fin = hashlib.md5(ctx).digest()
    for r in range(1000):
        c = pw if r & 1 else fin
        if r % 3:
            c += salt
        if r % 7:
            c += pw
        c += fin if r & 1 else pw
        fin = hashlib.md5(c).digest()
    out = b""
    for a, b, d in ((0, 6, 12), (1, 7, 13), (2, 8, 14), (3, 9, 15), (4, 10, 5)):
        out += to64((fin[a] << 16) | (fin[b] << 8) | fin[d], 4)
    out += to64(fin[11], 2)
    return magic + salt + b"$" + out


DES = re.compile(r"[./0-9A-Za-z]{13}")


def scheme(h):
    if h.startswith("$apr1$"):
        return "apr1"
    if h.startswith("$1$"):
        return "md5crypt"
    if h.startswith("$5$"):
        return "sha256crypt"
    if h.startswith("$6$"):
        return "sha512crypt"
    if h[:4] in ("$2a$", "$2b$", "$2y$"):
        return "bcrypt"
    if h.startswith("{SHA}"):
        return "sha1"
    if h.startswith("{SSHA}"):
        return "ssha"
    if DES.fullmatch(h):
        return "des"
    return "unsupported"


def entries(path):
    with open(path, "rb") as f:
        data = f.read().decode("utf-8")
    for line in data.split("\n"):
        line = line.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split(":")
        yield parts[0], (parts[1] if len(parts) > 1 else "")


def check(h, pw):
    s = scheme(h)
    pb = pw.encode("utf-8")
    if s == "apr1":
        salt = h[6:].split("$")[0].encode()
        return hmac.compare_digest(md5_crypt(pb, salt, b"$apr1$"), h.encode())
    if s in ("md5crypt", "sha256crypt", "sha512crypt", "bcrypt", "des"):
        got = crypt.crypt(pw, h)
        return got is not None and hmac.compare_digest(got, h)
    if s == "sha1":
        return base64.b64encode(hashlib.sha1(pb).digest()).decode() == h[5:]
    if s == "ssha":
        try:
            raw = base64.b64decode(h[6:], validate=True)
        except Exception:
            return False
        dig, salt = raw[:20], raw[20:]
        return len(salt) >= 1 and hashlib.sha1(pb + salt).digest() == dig
    return None


def main(argv):
    if len(argv) >= 2 and argv[0] == "audit":
        for u, h in entries(argv[1]):
            print(f"{u}\t{scheme(h)}")
        return 0
    if len(argv) == 4 and argv[0] == "verify":
        _, path, user, pw = argv
        table = dict(entries(path))   # one entry per user
        for u, h in table.items():
            if u == user:
                if scheme(h) == "unsupported":
                    print("unsupported")
                    return 3
                if check(h, pw):
                    print("ok")
                    return 0
                print("mismatch")
                return 1
        print("no-such-user")
        return 2
    print("usage: htcheck verify FILE USER PASSWORD | htcheck audit FILE", file=sys.stderr)
    return 64


sys.exit(main(sys.argv[1:]))
PY
chmod +x /app/htcheck
