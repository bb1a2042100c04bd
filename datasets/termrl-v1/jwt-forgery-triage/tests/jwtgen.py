"""RSA keys, PEM files and JWTs of every kind (test-side only)."""
import base64
import hashlib
import hmac
import json

DIGESTINFO = bytes.fromhex("3031300d060960864801650304020105000420")


def is_prime(n, rng):
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(20):
        a = rng.randrange(2, n - 1)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def prime(bits, rng):
    while True:
        c = rng.getrandbits(bits) | (3 << (bits - 2)) | 1
        if is_prime(c, rng):
            return c


def rsa_key(rng, bits=1024):
    e = 65537
    while True:
        p, q = prime(bits // 2, rng), prime(bits // 2, rng)
        phi = (p - 1) * (q - 1)
        if p != q and phi % e:
            return p * q, e, pow(e, -1, phi)


def _len(n):
    if n < 128:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def _tlv(tag, body):
    return bytes([tag]) + _len(len(body)) + body


def _int(n):
    b = n.to_bytes(n.bit_length() // 8 + 1, "big")
    return _tlv(0x02, b)


def pem(n, e):
    alg = _tlv(0x30, _tlv(0x06, bytes.fromhex("2a864886f70d010101")) + b"\x05\x00")
    spki = _tlv(0x30, alg + _tlv(0x03, b"\x00" + _tlv(0x30, _int(n) + _int(e))))
    b64 = base64.b64encode(spki).decode()
    return ("-----BEGIN PUBLIC KEY-----\n" + "\n".join(b64[i:i + 64] for i in range(0, len(b64), 64))
            + "\n-----END PUBLIC KEY-----\n").encode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def seg(obj):
    return b64u(json.dumps(obj, separators=(",", ":")).encode())


def rs256(key, signing_input):
    n, e, d = key
    k = (n.bit_length() + 7) // 8
    t = DIGESTINFO + hashlib.sha256(signing_input).digest()
    em = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    return pow(int.from_bytes(em, "big"), d, n).to_bytes(k, "big")


def token(header, payload, signer):
    """signer(signing_input) -> signature bytes."""
    h, p = seg(header), seg(payload)
    return f"{h}.{p}.{b64u(signer((h + '.' + p).encode()))}"


def hs256(secret):
    return lambda si: hmac.new(secret, si, hashlib.sha256).digest()
