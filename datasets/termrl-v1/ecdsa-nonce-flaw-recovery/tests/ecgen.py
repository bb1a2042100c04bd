"""P-256 arithmetic and a generator of signing logs with planted nonce flaws (test-side only)."""
import base64
import hashlib
import json
import random

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
GX = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
GY = 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def _add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    x1, y1 = p1
    x2, y2 = p2
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return None
        lam = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (lam * lam - x1 - x2) % P
    return x3, (lam * (x1 - x3) - y1) % P


def mul(k, pt=(GX, GY)):
    acc = None
    k %= N
    while k:
        if k & 1:
            acc = _add(acc, pt)
        pt = _add(pt, pt)
        k >>= 1
    return acc


def zhash(msg):
    return int.from_bytes(hashlib.sha256(msg).digest(), "big")


class Log:
    def __init__(self, rng):
        self.rng = rng
        self.keys = {}      # kid -> d
        self.sigs = []      # (kid, seq, msg, r, s)

    def kid(self):
        while True:
            k = "dev-" + "".join(self.rng.choice("0123456789abcdef") for _ in range(6))
            if k not in self.keys:
                return k

    def device(self):
        kid = self.kid()
        self.keys[kid] = self.rng.randrange(1, N)
        return kid

    def msg(self):
        rng = self.rng
        kind = rng.randrange(3)
        if kind == 0:
            body = {"op": "telemetry", "temp": round(rng.uniform(-20, 60), 2), "n": rng.randrange(10**6)}
            return json.dumps(body).encode()
        if kind == 1:
            return f"fw-attest boot={rng.randrange(1 << 32):08x} pcr0={rng.randrange(1 << 64):016x}".encode()
        return bytes(rng.randrange(256) for _ in range(rng.randint(8, 40)))

    def sign(self, kid, seq, k):
        d = self.keys[kid]
        m = self.msg()
        z = zhash(m)
        r = mul(k)[0] % N
        s = pow(k, -1, N) * (z + r * d) % N
        assert r and s
        self.sigs.append((kid, seq, m, r, s))
        return k

    def seqs(self, count):
        start = self.rng.randrange(0, 5000)
        out, cur = [], start
        for i in range(count):
            out.append(cur)
            cur += [1, self.rng.choice([2, 3, 7])][i] if i < 2 else self.rng.choice([1, 1, 1, 2, 3, 7])
        return out

    # device kinds -------------------------------------------------------------
    def sound(self, count, forced=None):
        """Random nonces; `forced` maps a position to a nonce to reuse (shared with another device)."""
        kid = self.device()
        ks = []
        for i, seq in enumerate(self.seqs(count)):
            k = (forced or {}).get(i) or self.rng.randrange(1, N)
            ks.append(self.sign(kid, seq, k))
        return kid, ks

    def repeater(self, count):
        kid = self.device()
        pool = [self.rng.randrange(1, N) for _ in range(self.rng.randint(2, 3))]
        picks = [self.rng.choice(pool) for _ in range(count)]
        if len(set(picks)) == len(picks):
            picks[-1] = picks[0]
        self.rng.shuffle(picks)
        return kid, [self.sign(kid, seq, k) for seq, k in zip(self.seqs(count), picks)]

    def affine(self, count, forced=None):
        kid = self.device()
        a, b = self.rng.randrange(1, N), self.rng.randrange(1, N)
        ks = []
        for i, seq in enumerate(self.seqs(count)):
            k = (forced or {}).get(i) or (a + b * seq) % N
            ks.append(self.sign(kid, seq, k))
        return kid, ks

    def render(self, shuffle_keys=True):
        rng = self.rng
        lines = [json.dumps({"type": "curve", "name": "P-256", "p": hex(P), "a": hex(A), "b": hex(B),
                             "gx": hex(GX), "gy": hex(GY), "n": hex(N)})]
        kids = list(self.keys)
        if shuffle_keys:
            rng.shuffle(kids)
        for kid in kids:
            q = mul(self.keys[kid])
            lines.append(json.dumps({"type": "key", "kid": kid, "qx": format(q[0], "064x"), "qy": format(q[1], "064x")}))
        # signatures interleaved across devices, each device's own in seq order
        queues = {}
        for sig in self.sigs:
            queues.setdefault(sig[0], []).append(sig)
        order = [kid for kid, q in queues.items() for _ in q]
        rng.shuffle(order)
        t = 1795000000
        for kid in order:
            kid, seq, m, r, s = queues[kid].pop(0)
            t += rng.randint(1, 900)
            lines.append(json.dumps({"type": "sig", "t": t, "kid": kid, "seq": seq,
                                     "msg": base64.b64encode(m).decode(), "r": format(r, "x"), "s": format(s, "x")}))
        return "\n".join(lines) + "\n"
