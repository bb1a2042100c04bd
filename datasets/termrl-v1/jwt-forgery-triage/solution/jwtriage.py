#!/usr/bin/env python3
"""Classify JWTs from a log: valid, expired, or which forgery."""
import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import sys

B64URL = re.compile(r"[A-Za-z0-9_-]*")
DIGESTINFO = bytes.fromhex("3031300d060960864801650304020105000420")


def b64d(seg):
    if not B64URL.fullmatch(seg) or len(seg) % 4 == 1:
        raise ValueError("bad segment")
    return base64.urlsafe_b64decode(seg + "=" * (-len(seg) % 4))


def der(buf, pos):
    tag = buf[pos]
    ln = buf[pos + 1]
    pos += 2
    if ln & 0x80:
        k = ln & 0x7F
        ln = int.from_bytes(buf[pos:pos + k], "big")
        pos += k
    return tag, buf[pos:pos + ln], pos + ln


def rsa_public(pem):
    body = "".join(l for l in pem.decode().splitlines() if l and not l.startswith("-----"))
    spki = base64.b64decode(body)
    _, seq, _ = der(spki, 0)
    _, _, p = der(seq, 0)                 # AlgorithmIdentifier
    _, bits, _ = der(seq, p)              # BIT STRING
    _, rsakey, _ = der(bits[1:], 0)
    _, n, p = der(rsakey, 0)
    _, e, _ = der(rsakey, p)
    return int.from_bytes(n, "big"), int.from_bytes(e, "big")


def classify(token, keydir, now):
    parts = token.split(".")
    if len(parts) != 3:
        return "malformed"
    try:
        header = json.loads(b64d(parts[0]))
        payload = json.loads(b64d(parts[1]))
        sig = b64d(parts[2])
    except (ValueError, UnicodeDecodeError):
        return "malformed"
    if not isinstance(header, dict) or not isinstance(payload, dict) or not isinstance(header.get("alg"), str):
        return "malformed"
    alg = header["alg"]
    if alg.lower() == "none":
        return "alg-none"
    if alg not in ("RS256", "HS256"):
        return "unsupported-alg"
    kid = header.get("kid")
    if not isinstance(kid, str) or not re.fullmatch(r"[A-Za-z0-9._-]+", kid) or kid.startswith("."):
        return "unknown-kid"
    pem_path = os.path.join(keydir, kid + ".pem")
    sec_path = os.path.join(keydir, kid + ".secret")
    if not (os.path.isfile(pem_path) or os.path.isfile(sec_path)):
        return "unknown-kid"
    signing_input = (parts[0] + "." + parts[1]).encode()
    ok = False
    if alg == "HS256" and os.path.isfile(pem_path):
        pem = open(pem_path, "rb").read()
        if hmac.compare_digest(hmac.new(pem, signing_input, hashlib.sha256).digest(), sig):
            return "alg-confusion"
    elif alg == "HS256":
        key = open(sec_path, "rb").read()
        ok = hmac.compare_digest(hmac.new(key, signing_input, hashlib.sha256).digest(), sig)
    elif alg == "RS256" and os.path.isfile(pem_path):
        n, e = rsa_public(open(pem_path, "rb").read())
        k = (n.bit_length() + 7) // 8
        if len(sig) == k and int.from_bytes(sig, "big") < n:
            em = pow(int.from_bytes(sig, "big"), e, n).to_bytes(k, "big")
            t = DIGESTINFO + hashlib.sha256(signing_input).digest()
            ok = em == b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    if not ok:
        return "bad-signature"
    exp, nbf = payload.get("exp"), payload.get("nbf")
    if isinstance(exp, (int, float)) and not isinstance(exp, bool) and exp <= now:
        return "expired"
    if isinstance(nbf, (int, float)) and not isinstance(nbf, bool) and nbf > now:
        return "not-yet-valid"
    return "valid"


def main(argv):
    keydir, tokens = argv[0], argv[1]
    now = int(argv[argv.index("--now") + 1])
    out = []
    for no, line in enumerate(open(tokens, encoding="utf-8", errors="replace").read().split("\n"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        out.append({"line": no, "verdict": classify(line, keydir, now)})
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
