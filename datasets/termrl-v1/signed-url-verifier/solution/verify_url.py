import argparse
import base64
import hashlib
import hmac
import json
import re
import sys
import time
import urllib.parse


def verify(url, keys, now):
    u = urllib.parse.urlsplit(url)
    params = {}
    for part in u.query.split("&") if u.query else []:
        name, _, value = part.partition("=")
        if name in params:
            return "malformed"
        params[name] = value
    if not all(k in params for k in ("sig", "expires", "kid")):
        return "malformed"
    if not re.fullmatch(r"[0-9]+", params["expires"]):
        return "malformed"
    sig = params["sig"]
    if not re.fullmatch(r"[A-Za-z0-9_-]*", sig):
        return "malformed"
    try:
        raw = base64.urlsafe_b64decode(sig + "=" * (-len(sig) % 4))
    except Exception:
        return "malformed"
    if len(raw) != 32:
        return "malformed"
    if params["kid"] not in keys:
        return "unknown-key"
    if int(params["expires"]) <= now:
        return "expired"
    q = "&".join(f"{k}={v}" for k, v in sorted(((k, v) for k, v in params.items() if k != "sig"), key=lambda kv: kv[0].encode()))
    msg = f"GET\n{u.path}\n{q}".encode()
    want = hmac.new(bytes.fromhex(keys[params["kid"]]), msg, hashlib.sha256).digest()
    return None if hmac.compare_digest(want, raw) else "bad-signature"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keys", default="/app/keys.json")
    ap.add_argument("--now", type=int, default=None)
    ap.add_argument("url")
    a = ap.parse_args()
    keys = json.load(open(a.keys))
    now = a.now if a.now is not None else int(time.time())
    r = verify(a.url, keys, now)
    print("VALID" if r is None else f"INVALID {r}")
    return 0 if r is None else 1


if __name__ == "__main__":
    sys.exit(main())
