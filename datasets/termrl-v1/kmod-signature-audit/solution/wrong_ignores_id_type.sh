#!/bin/bash
# Wrong: does not check id_type (a non-PKCS#7 signature record is accepted if its bytes verify).
set -e
cat > /app/kmodcheck <<'PY'
#!/usr/bin/env python3
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

MARKER = b"~Module signature appended~\n"


def ossl(args, data=None):
    return subprocess.run(["openssl", *args], input=data, capture_output=True)


def trusted_certs(d, tmp):
    out = []
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if not os.path.isfile(p):
            continue
        raw = open(p, "rb").read()
        fmt = "PEM" if b"-----BEGIN" in raw else "DER"
        pem = ossl(["x509", "-inform", fmt, "-in", p, "-outform", "PEM"]).stdout
        if not pem:
            continue
        cp = os.path.join(tmp, f"trust-{len(out)}.pem")
        open(cp, "wb").write(pem)
        subj = ossl(["x509", "-in", cp, "-noout", "-subject", "-nameopt", "multiline,utf8"]).stdout.decode()
        cn = next((ln.split("=", 1)[1].strip() for ln in subj.splitlines() if ln.strip().startswith("commonName")),
                  None)
        out.append((cp, cn))
    return out


def check(path, certs, tmp):
    data = open(path, "rb").read()
    res = {"module": os.path.basename(path), "status": "unsigned", "signer": None, "hash": None, "findings": []}
    if not data.endswith(MARKER):
        return res
    res["status"] = "malformed"
    rest = data[:-len(MARKER)]
    if len(rest) < 12:
        return res
    algo, hsh, id_type, slen, klen, sig_len = struct.unpack(">BBBBB3xI", rest[-12:])
    rest = rest[:-12]
    if sig_len > len(rest):
        return res
    sig, content = rest[len(rest) - sig_len:], rest[:len(rest) - sig_len]
    sp, cp = os.path.join(tmp, "sig.der"), os.path.join(tmp, "content")
    open(sp, "wb").write(sig)
    open(cp, "wb").write(content)
    pr = ossl(["cms", "-cmsout", "-print", "-inform", "DER", "-in", sp])
    if pr.returncode:
        return res
    text = pr.stdout.decode(errors="replace")
    m = re.search(r"signerInfos:.*?digestAlgorithm:\s*\n\s*algorithm:\s*(\S+)", text, re.S)
    if not m:
        return res
    res["hash"] = m.group(1).lower()
    res["findings"] = ["weak-hash"] if res["hash"] == "sha1" else []
    res["status"] = "untrusted"
    for cert, cn in certs:
        v = ossl(["cms", "-verify", "-inform", "DER", "-in", sp, "-content", cp, "-binary", "-certfile", cert,
                  "-noverify", "-out", os.devnull])
        if v.returncode == 0:
            res["status"], res["signer"] = "valid", cn
            return res
        if b"signer certificate not found" not in v.stderr:
            res["status"], res["signer"] = "bad-signature", cn
    return res


def main(moddir, trustdir):
    with tempfile.TemporaryDirectory() as tmp:
        certs = trusted_certs(trustdir, tmp)
        out = [check(os.path.join(moddir, n), certs, tmp) for n in sorted(os.listdir(moddir))
               if n.endswith(".ko") and os.path.isfile(os.path.join(moddir, n))]
    json.dump(out, sys.stdout, indent=1)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/kmodcheck
