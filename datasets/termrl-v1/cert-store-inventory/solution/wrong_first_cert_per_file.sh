#!/bin/bash
# Wrong: reads only the first certificate of each PEM file, as `openssl x509 -in FILE` does.
set -e
cat > /app/certinv <<'PY'
#!/usr/bin/env python3
import base64
import hashlib
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timezone

BLOCK = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----\r?\n(.*?)-----END \1-----", re.S)
KEY_TYPES = {b"PRIVATE KEY", b"RSA PRIVATE KEY", b"EC PRIVATE KEY"}


def ossl(args, data):
    return subprocess.run(["openssl", *args], input=data, capture_output=True, check=True).stdout.decode()


def iso(s):
    d = datetime.strptime(s.strip(), "%b %d %H:%M:%S %Y GMT").replace(tzinfo=timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def cn(der, which):
    out = ossl(["x509", "-inform", "DER", "-noout", f"-{which}", "-nameopt", "sep_multiline,sname,utf8"], der)
    vals = [ln.strip()[3:] for ln in out.splitlines()[1:] if ln.strip().startswith("CN=")]
    return vals[-1] if vals else None


def describe(der):
    text = ossl(["x509", "-inform", "DER", "-noout", "-text"], der)
    subj = ossl(["x509", "-inform", "DER", "-noout", "-subject", "-nameopt", "RFC2253"], der).split("=", 1)[1]
    iss = ossl(["x509", "-inform", "DER", "-noout", "-issuer", "-nameopt", "RFC2253"], der).split("=", 1)[1]
    serial = ossl(["x509", "-inform", "DER", "-noout", "-serial"], der).split("=", 1)[1].strip().lower()
    serial = serial.lstrip("0") or "0"
    nb = ossl(["x509", "-inform", "DER", "-noout", "-startdate"], der).split("=", 1)[1]
    na = ossl(["x509", "-inform", "DER", "-noout", "-enddate"], der).split("=", 1)[1]
    pub = ossl(["x509", "-inform", "DER", "-noout", "-pubkey"], der)
    m = re.search(r"Public Key Algorithm: (\S+)", text)
    if m.group(1) == "rsaEncryption":
        bits = int(re.search(r"Public-Key: \((\d+) bit\)", text).group(1))
        key = f"rsa-{bits}"
    else:
        key = "ec-" + re.search(r"ASN1 OID: (\S+)", text).group(1)
        bits = None
    sig = re.search(r"Signature Algorithm: (\S+)", text).group(1)
    bc = re.search(r"X509v3 Basic Constraints:.*?\n\s*(.*)", text)
    is_ca = bool(bc and "CA:TRUE" in bc.group(1))
    has_san = "X509v3 Subject Alternative Name" in text
    dns = []
    if has_san:
        san = ossl(["x509", "-inform", "DER", "-noout", "-ext", "subjectAltName"], der)
        for part in " ".join(san.splitlines()[1:]).split(","):
            part = part.strip()
            if part.startswith("DNS:"):
                dns.append(part[4:])
    return {
        "subject_cn": cn(der, "subject"), "issuer_cn": cn(der, "issuer"), "serial": serial,
        "not_before": iso(nb), "not_after": iso(na), "key": key,
        "sha256": hashlib.sha256(der).hexdigest(), "self_signed": subj.strip() == iss.strip(),
        "is_ca": is_ca, "dns_names": dns,
        "_weak": key.startswith("rsa-") and bits < 2048, "_sha1": "sha1" in sig.lower(),
        "_san": has_san, "_pub": pub,
    }


def main(root, at):
    at = datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    certs, keys = [], []   # keys: (file, public key PEM)
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(dirpath, name)
            if not os.path.isfile(full) or os.path.islink(full):
                continue
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            data = open(full, "rb").read()
            if b"-----BEGIN " in data:
                idx = 0
                for m in BLOCK.finditer(data):
                    typ = m.group(1)
                    if typ == b"CERTIFICATE":
                        der = base64.b64decode(b"".join(m.group(2).split()))
                        if idx == 0:   # openssl x509 -in FILE: one certificate per file
                            certs.append((rel, idx, "pem", der))
                        idx += 1
                    elif typ in KEY_TYPES:
                        pub = ossl(["pkey", "-pubout"], m.group(0) + b"\n")
                        keys.append((rel, pub))
            else:
                try:
                    ossl(["x509", "-inform", "DER", "-noout"], data)
                except subprocess.CalledProcessError:
                    continue
                certs.append((rel, 0, "der", data))
    out, used = [], set()
    for rel, idx, fmt, der in sorted(certs, key=lambda c: (c[0], c[1])):
        d = describe(der)
        f = []
        if at > datetime.strptime(d["not_after"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc):
            f.append("expired")
        if d["_weak"]:
            f.append("weak-key")
        if d["_sha1"]:
            f.append("sha1-signature")
        if not d["is_ca"] and not d["_san"]:
            f.append("no-san")
        pks = sorted({k for k, pub in keys if pub == d["_pub"]})
        used.update(pks_pub for pks_pub in [d["_pub"]])
        row = {"file": rel, "index": idx, "format": fmt}
        row.update({k: v for k, v in d.items() if not k.startswith("_")})
        row["findings"] = sorted(f)
        row["private_keys"] = pks
        out.append(row)
    orphans = sorted({k for k, pub in keys if pub not in used})
    json.dump({"certificates": out, "orphan_keys": orphans}, sys.stdout, indent=1)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/certinv
