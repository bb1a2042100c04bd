"""/app/jwtriage.py on key directories and token logs generated here: fresh RSA and HMAC keys, valid
tokens around the expiry/not-before boundaries, and every kind of forgery the instruction names."""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import jwtgen as J  # noqa: E402

TOOL = "/app/jwtriage.py"
RNG = random.Random(os.urandom(8))
NOW = 1796000000 + RNG.randrange(10**6)
USERS = ["alice", "bob", "svc-billing", "admin", "carol"]


class Case:
    def __init__(self, tmp_path, n_rsa=2, n_hmac=2):
        self.dir = tmp_path / "keys"
        self.dir.mkdir()
        self.rsa, self.hmac = {}, {}
        for _ in range(n_rsa):
            kid = f"rsa-{RNG.getrandbits(24):06x}"
            key = J.rsa_key(RNG)
            self.rsa[kid] = key
            (self.dir / f"{kid}.pem").write_bytes(J.pem(key[0], key[1]))
        for _ in range(n_hmac):
            kid = f"hs-{RNG.getrandbits(24):06x}"
            secret = bytes(RNG.choice(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/") for _ in range(RNG.randint(16, 40)))
            self.hmac[kid] = secret
            (self.dir / f"{kid}.secret").write_bytes(secret)
        (self.dir / "README").write_text("keys of the api gateway\n")
        self.lines, self.expected = [], []

    def payload(self, exp=None, nbf=None):
        p = {"sub": RNG.choice(USERS), "role": RNG.choice(["user", "reader"]), "iat": NOW - RNG.randint(100, 5000)}
        p["exp"] = exp if exp is not None else NOW + RNG.randint(60, 86400)
        if nbf is not None:
            p["nbf"] = nbf
        keys = list(p)
        RNG.shuffle(keys)
        return {k: p[k] for k in keys}

    def signed(self, kind="any", payload=None, header_extra=None):
        payload = payload or self.payload()
        if kind == "any":
            kind = RNG.choice(["rs", "hs"])
        if kind == "rs":
            kid = RNG.choice(list(self.rsa))
            h = {"alg": "RS256", "typ": "JWT", "kid": kid}
            signer = lambda si: J.rs256(self.rsa[kid], si)  # noqa: E731
        else:
            kid = RNG.choice(list(self.hmac))
            h = {"alg": "HS256", "typ": "JWT", "kid": kid}
            signer = J.hs256(self.hmac[kid])
        h.update(header_extra or {})
        return J.token(h, payload, signer)

    def add(self, tok, verdict):
        if RNG.random() < 0.15:
            self.lines.append(RNG.choice(["", "# captured at the gateway", "   "]))
        self.lines.append(tok)
        self.expected.append({"line": len(self.lines), "verdict": verdict})

    def run(self):
        log = self.dir.parent / "tokens.txt"
        log.write_text("\n".join(self.lines) + "\n")
        r = subprocess.run([sys.executable, TOOL, str(self.dir), str(log), "--now", str(NOW)],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr[-2000:]
        return json.loads(r.stdout)


def tamper(tok):
    h, p, s = tok.split(".")
    obj = json.loads(J.base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)))
    obj["role"] = "admin"
    return f"{h}.{J.seg(obj)}.{s}"


def test_valid_rs256_and_hs256(tmp_path):
    c = Case(tmp_path)
    for _ in range(4):
        c.add(c.signed("rs"), "valid")
        c.add(c.signed("hs"), "valid")
    assert c.run() == c.expected


def test_expiry_and_not_before_boundaries(tmp_path):
    c = Case(tmp_path)
    c.add(c.signed(payload=c.payload(exp=NOW)), "expired")
    c.add(c.signed(payload=c.payload(exp=NOW + 1)), "valid")
    c.add(c.signed(payload=c.payload(exp=NOW - 3600)), "expired")
    c.add(c.signed(payload=c.payload(nbf=NOW)), "valid")
    c.add(c.signed(payload=c.payload(nbf=NOW + 1)), "not-yet-valid")
    c.add(c.signed(payload=c.payload(exp=NOW - 5, nbf=NOW + 5)), "expired")
    assert c.run() == c.expected


def test_tampered_and_wrongly_signed(tmp_path):
    c = Case(tmp_path)
    for _ in range(2):
        c.add(tamper(c.signed("rs")), "bad-signature")
        c.add(tamper(c.signed("hs")), "bad-signature")
    other = J.rsa_key(RNG)
    kid = next(iter(c.rsa))
    c.add(J.token({"alg": "RS256", "kid": kid}, c.payload(), lambda si: J.rs256(other, si)), "bad-signature")
    hk = next(iter(c.hmac))
    c.add(J.token({"alg": "HS256", "kid": hk}, c.payload(), J.hs256(b"guessed-secret")), "bad-signature")
    # an RS256 header naming an HMAC key, and an expired token with a bad signature
    c.add(J.token({"alg": "RS256", "kid": hk}, c.payload(), J.hs256(c.hmac[hk])), "bad-signature")
    c.add(tamper(c.signed("hs", payload=c.payload(exp=NOW - 10))), "bad-signature")
    assert c.run() == c.expected


def test_alg_none_and_key_confusion(tmp_path):
    c = Case(tmp_path)
    for alg in ["none", "None", "NONE", "nOnE"]:
        sig = RNG.choice([b"", b"x" * 32])
        c.add(J.token({"alg": alg, "typ": "JWT"}, c.payload(), lambda si: sig), "alg-none")
    for kid in c.rsa:
        pem = (c.dir / f"{kid}.pem").read_bytes()
        c.add(J.token({"alg": "HS256", "typ": "JWT", "kid": kid}, c.payload(), J.hs256(pem)), "alg-confusion")
        # HS256 naming an RSA key but keyed with something else: just a bad signature
        c.add(J.token({"alg": "HS256", "kid": kid}, c.payload(), J.hs256(pem.strip())), "bad-signature")
        # confusion with an expired payload is still reported as the forgery
        c.add(J.token({"alg": "HS256", "kid": kid}, c.payload(exp=NOW - 100), J.hs256(pem)), "alg-confusion")
    assert c.run() == c.expected


def test_kids_algorithms_and_malformed(tmp_path):
    c = Case(tmp_path)
    hk = next(iter(c.hmac))
    sec = c.hmac[hk]
    c.add(J.token({"alg": "HS256"}, c.payload(), J.hs256(sec)), "unknown-kid")
    c.add(J.token({"alg": "HS256", "kid": "hs-000000x"}, c.payload(), J.hs256(sec)), "unknown-kid")
    c.add(J.token({"alg": "HS256", "kid": f"../keys/{hk}"}, c.payload(), J.hs256(sec)), "unknown-kid")
    c.add(J.token({"alg": "HS256", "kid": "README"}, c.payload(), J.hs256(b"keys of the api gateway\n")), "unknown-kid")
    c.add(J.token({"alg": "RS512", "kid": next(iter(c.rsa))}, c.payload(), lambda si: b"\x01" * 128), "unsupported-alg")
    c.add(J.token({"alg": "ES256", "kid": "nope"}, c.payload(), lambda si: b"\x01" * 64), "unsupported-alg")
    good = c.signed()
    h, p, s = good.split(".")
    c.add(f"{h}.{p}", "malformed")
    c.add(f"{h}.{p}.{s}.{s}", "malformed")
    c.add(f"{h}.{p[:5]}*{p[5:]}.{s}", "malformed")
    c.add(f"{J.b64u(b'[1,2,3]')}.{p}.{s}", "malformed")
    c.add(f"{J.seg({'typ': 'JWT', 'kid': hk})}.{p}.{s}", "malformed")
    c.add(f"{J.b64u(b'not json')}.{p}.{s}", "malformed")
    c.add(f"{h}.{J.b64u(b'{broken')}.{s}", "malformed")
    assert c.run() == c.expected


def test_mixed_gateway_log(tmp_path):
    c = Case(tmp_path, n_rsa=3, n_hmac=2)
    kinds = ["valid"] * 6 + ["expired", "not-yet-valid", "bad-signature", "alg-none", "alg-confusion", "unknown-kid"] * 2
    RNG.shuffle(kinds)
    for k in kinds:
        if k == "valid":
            c.add(c.signed(), k)
        elif k == "expired":
            c.add(c.signed(payload=c.payload(exp=NOW - RNG.randint(0, 10**5))), k)
        elif k == "not-yet-valid":
            c.add(c.signed(payload=c.payload(nbf=NOW + RNG.randint(1, 10**5))), k)
        elif k == "bad-signature":
            c.add(tamper(c.signed()), k)
        elif k == "alg-none":
            c.add(J.token({"alg": "none"}, c.payload(), lambda si: b""), k)
        elif k == "alg-confusion":
            kid = RNG.choice(list(c.rsa))
            c.add(J.token({"alg": "HS256", "kid": kid}, c.payload(), J.hs256((c.dir / f"{kid}.pem").read_bytes())), k)
        else:
            c.add(J.token({"alg": "RS256", "kid": f"rsa-{RNG.getrandbits(30):08x}"}, c.payload(), lambda si: b"\0" * 128), k)
    assert c.run() == c.expected
