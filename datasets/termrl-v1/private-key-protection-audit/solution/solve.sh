#!/bin/bash
# Reference solution: classify PEM private keys; EncryptedPrivateKeyInfo parameters via openssl asn1parse.
set -e
cat > /app/keyprotect <<'PY'
#!/usr/bin/env python3
import json
import os
import re
import subprocess
import sys

BLOCK = re.compile(r"-----BEGIN ((?:ENCRYPTED |RSA |EC |DSA )?PRIVATE KEY)-----\r?\n(.*?)-----END \1-----", re.S)


def asn1(pem):
    out = subprocess.run(["openssl", "asn1parse"], input=pem.encode(), capture_output=True).stdout.decode()
    rows = []
    for line in out.splitlines():
        m = re.search(r"prim:\s+(\S+)\s*:?(.*)$", line)
        if m:
            rows.append((m.group(1), m.group(2).strip()))
    return rows


def main(d):
    res = []
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        if not os.path.isfile(p):
            continue
        text = open(p, encoding="utf-8", errors="replace").read()
        m = BLOCK.search(text)
        if not m:
            continue
        kind, body = m.group(1), m.group(2)
        e = {"file": n, "format": "pkcs8" if kind in ("PRIVATE KEY", "ENCRYPTED PRIVATE KEY") else "traditional",
             "encrypted": False, "cipher": None, "kdf": None, "iterations": None, "prf": None}
        if kind == "ENCRYPTED PRIVATE KEY":
            rows = asn1(m.group(0))
            objs = [v for t, v in rows if t == "OBJECT"]
            ints = [int(v, 16) for t, v in rows if t == "INTEGER"]
            e["encrypted"] = True
            if objs and objs[0] == "PBES2":
                e["kdf"] = "pbkdf2"
                e["iterations"] = ints[0]
                e["prf"] = next((o for o in objs if o.startswith("hmacWith")), "hmacWithSHA1")
                e["cipher"] = [o for o in objs if o not in ("PBES2", "PBKDF2") and not o.startswith("hmacWith")][0]
            elif objs and objs[0] == "pbeWithSHA1And3-KeyTripleDES-CBC":
                e["kdf"], e["cipher"], e["iterations"] = "pkcs12-pbe", "des-ede3-cbc", ints[0]
        elif "Proc-Type: 4,ENCRYPTED" in body:
            dek = re.search(r"DEK-Info:\s*([^,\s]+)", body)
            e.update(encrypted=True, cipher=dek.group(1).lower(), kdf="evp-bytestokey")
        f = []
        if not e["encrypted"]:
            f.append("unencrypted")
        if e["cipher"] in ("des-cbc", "des-ede3-cbc"):
            f.append("weak-cipher")
        if e["kdf"] in ("evp-bytestokey", "pkcs12-pbe"):
            f.append("legacy-kdf")
        if e["iterations"] is not None and e["iterations"] < 10000:
            f.append("low-iterations")
        if e["prf"] == "hmacWithSHA1":
            f.append("sha1-prf")
        e["findings"] = sorted(f)
        res.append(e)
    json.dump(res, sys.stdout, indent=1)
    print()


main(sys.argv[1])
PY
chmod +x /app/keyprotect
