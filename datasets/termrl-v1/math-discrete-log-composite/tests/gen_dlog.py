"""Random instances meeting the task's guarantee (seeded)."""
import random

import ref_dlog

SMALL = [p for p in range(2, 2000) if ref_dlog.is_prime(p)]
MID = [p for p in range(50000, 100000, 7) if ref_dlog.is_prime(p)][:40]


def smooth_prime(rng, bits):
    while True:
        m = 2
        while m.bit_length() < bits:
            m *= rng.choice(SMALL[:200]) if rng.random() < 0.8 else rng.choice(MID)
        if m.bit_length() <= bits + 12 and ref_dlog.is_prime(m + 1):
            return m + 1


def modulus(rng, kind):
    limit = 10 ** 18
    while True:
        parts = []
        if kind in ("prime", "mixed"):
            parts.append(smooth_prime(rng, rng.choice([20, 30, 40, 50]) if kind == "mixed" else 58))
        if kind in ("two", "mixed"):
            parts.append(2 ** rng.randrange(1, 21))
        if kind in ("mixed", "powers", "two"):
            for _ in range(rng.randrange(1, 4)):
                p = rng.choice(SMALL[1:60] + [99991, 65537, 7919])
                parts.append(p ** rng.randrange(1, 4))
        n = 1
        for q in parts:
            n *= q
        if 1 < n <= limit and len(set(parts)) == len(parts):
            ok = True
            f = ref_dlog.factor(n)
            for p, e in f.items():
                if e > 1 and p > 10 ** 5:
                    ok = False
                if max(ref_dlog.factor(p - 1) or {1: 1}) > 10 ** 5:
                    ok = False
            if ok:
                return n


def instance(rng, kind):
    n = modulus(rng, kind)
    a = rng.randrange(n)
    if kind != "prime" and rng.random() < 0.4:
        ps = list(ref_dlog.factor(n))
        a = a * rng.choice(ps) % n
    r = rng.random()
    if r < 0.5:
        b = pow(a, rng.randrange(10 ** 18), n)
    elif r < 0.7:
        b = pow(a, rng.randrange(0, 70), n)
    else:
        b = rng.randrange(n)
    return a, b, n
