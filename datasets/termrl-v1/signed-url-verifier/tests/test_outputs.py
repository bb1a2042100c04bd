import base64
import hashlib
import hmac
import json
import subprocess
import sys

import pytest

KEYS = json.load(open("/app/keys.json"))
NOW = 1750000000


def sign(path, params, kid_key):
    q = "&".join(f"{k}={v}" for k, v in sorted(params.items(), key=lambda kv: kv[0].encode()))
    mac = hmac.new(bytes.fromhex(kid_key), f"GET\n{path}\n{q}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def make(path, params, order=None, key=None, sig=None):
    kid = params["kid"]
    s = sig if sig is not None else sign(path, params, key or KEYS.get(kid, "00" * 16))
    items = [(k, params[k]) for k in (order or list(params))]
    items.insert(len(items) // 2, ("sig", s))
    return f"https://dl.example.test{path}?" + "&".join(f"{k}={v}" for k, v in items)


def check(url, keys=None, now=NOW):
    args = [sys.executable, "/app/verify_url.py", "--now", str(now)]
    if keys:
        args += ["--keys", keys]
    r = subprocess.run(args + [url], capture_output=True, text=True, timeout=30)
    return r.returncode, r.stdout.strip()


def test_valid_urls():
    u = make("/files/reports/q1.pdf", {"expires": str(NOW + 60), "kid": "k2025", "user": "ana"})
    assert check(u) == (0, "VALID")
    u = make("/files/a%20b%2Fc.txt", {"kid": "k2024", "expires": str(NOW + 1), "zone": "eu%2Dwest", "a": "1"},
             order=["zone", "kid", "a", "expires"])
    assert check(u) == (0, "VALID")


def test_encoding_is_signed_verbatim():
    params = {"expires": str(NOW + 60), "kid": "k2025", "name": "r%C3%A9sum%C3%A9"}
    good = make("/files/x", params)
    assert check(good) == (0, "VALID")
    tampered = good.replace("name=r%C3%A9sum%C3%A9", "name=r%c3%a9sum%c3%a9")
    assert check(tampered) == (1, "INVALID bad-signature")


def test_bad_signature_and_tampering():
    u = make("/files/a.txt", {"expires": str(NOW + 60), "kid": "k2025", "user": "ana"})
    assert check(u.replace("user=ana", "user=bob")) == (1, "INVALID bad-signature")
    assert check(u.replace("/files/a.txt", "/files/b.txt")) == (1, "INVALID bad-signature")
    other = make("/files/a.txt", {"expires": str(NOW + 60), "kid": "k2025", "user": "ana"}, key=KEYS["k2024"])
    assert check(other) == (1, "INVALID bad-signature")


def test_expired_boundary_and_order():
    at_now = make("/f", {"expires": str(NOW), "kid": "k2024"})
    assert check(at_now) == (1, "INVALID expired")
    assert check(at_now, now=NOW - 1) == (0, "VALID")
    # expired AND badly signed: expiry is checked first
    bad = make("/f", {"expires": str(NOW - 5), "kid": "k2024"}, sig=sign("/g", {"expires": "1", "kid": "k2024"}, KEYS["k2024"]))
    assert check(bad) == (1, "INVALID expired")


def test_unknown_key_and_custom_keyfile(tmp_path):
    u = make("/f", {"expires": str(NOW + 9), "kid": "k1999"}, key="aa" * 16)
    assert check(u) == (1, "INVALID unknown-key")
    kf = tmp_path / "keys.json"
    kf.write_text(json.dumps({"k1999": "aa" * 16}))
    assert check(u, keys=str(kf)) == (0, "VALID")


def test_malformed():
    good = make("/f", {"expires": str(NOW + 60), "kid": "k2025"})
    sig = good.split("sig=")[1].split("&")[0]
    cases = [
        good.replace("sig=" + sig, "sig=" + sig + "="),
        good.replace("sig=" + sig, "sig=" + sig[:-4]),
        good.replace("sig=" + sig, "sig=" + sig[:-1] + "+"),
        good.replace("expires=", "expires=-"),
        good.replace("expires=", "expires=1e"),
        good + "&kid=k2025",
        good.replace("&kid=k2025", "").replace("kid=k2025&", ""),
        "https://dl.example.test/f?expires=1&kid=k2025",
    ]
    for c in cases:
        assert check(c) == (1, "INVALID malformed"), c
