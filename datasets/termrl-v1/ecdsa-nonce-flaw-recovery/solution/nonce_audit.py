#!/usr/bin/env python3
"""Recover ECDSA private keys from a signing log whose devices drew nonces badly."""
import base64
import hashlib
import itertools
import json
import sys


def main(path):
    curve, keys, sigs = None, {}, {}
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        rec = json.loads(line)
        if rec["type"] == "curve":
            curve = {k: int(v, 16) for k, v in rec.items() if k not in ("type", "name")}
        elif rec["type"] == "key":
            keys[rec["kid"]] = (int(rec["qx"], 16), int(rec["qy"], 16))
        elif rec["type"] == "sig":
            z = int.from_bytes(hashlib.sha256(base64.b64decode(rec["msg"])).digest(), "big")
            sigs.setdefault(rec["kid"], []).append((rec["seq"], z, int(rec["r"], 16), int(rec["s"], 16)))
    p, a, n, g = curve["p"], curve["a"], curve["n"], (curve["gx"], curve["gy"])
    nbits = n.bit_length()

    def add(p1, p2):
        if p1 is None:
            return p2
        if p2 is None:
            return p1
        (x1, y1), (x2, y2) = p1, p2
        if x1 == x2:
            if (y1 + y2) % p == 0:
                return None
            lam = (3 * x1 * x1 + a) * pow(2 * y1, -1, p) % p
        else:
            lam = (y2 - y1) * pow(x2 - x1, -1, p) % p
        x3 = (lam * lam - x1 - x2) % p
        return x3, (lam * (x1 - x3) - y1) % p

    def mul(k):
        acc, pt = None, g
        while k:
            if k & 1:
                acc = add(acc, pt)
            pt = add(pt, pt)
            k >>= 1
        return acc

    # hashes longer than n are truncated to n's bit length (standard ECDSA)
    for kid in sigs:
        sigs[kid] = [(q, z >> max(0, 256 - nbits), r, s) for q, z, r, s in sigs[kid]]

    found = {}

    def accept(kid, d):
        d %= n
        if kid in found or kid not in keys or d == 0:
            return kid in found
        if mul(d) == keys[kid]:
            found[kid] = d
            return True
        return False

    def solve(rows):
        """Gaussian elimination mod n; rows are [c0, c1, c2, rhs]."""
        m = [list(r) for r in rows]
        size = len(m)
        for col in range(size):
            piv = next((i for i in range(col, size) if m[i][col] % n), None)
            if piv is None:
                return None
            m[col], m[piv] = m[piv], m[col]
            inv = pow(m[col][col], -1, n)
            m[col] = [v * inv % n for v in m[col]]
            for i in range(size):
                if i != col and m[i][col]:
                    f = m[i][col]
                    m[i] = [(vi - f * vc) % n for vi, vc in zip(m[i], m[col])]
        return [row[-1] for row in m]

    for kid, lst in sigs.items():
        # the same nonce twice (r equal; the nonce may also be the negation)
        by_r = {}
        for sig in lst:
            by_r.setdefault(sig[2], []).append(sig)
        for group in by_r.values():
            for (_, z1, r, s1), (_, z2, _, s2) in itertools.combinations(group, 2):
                for sign in (1, -1):
                    den = (s1 - sign * s2) % n
                    if den:
                        k = (z1 - sign * z2) * pow(den, -1, n) % n
                        if accept(kid, (s1 * k - z1) * pow(r, -1, n)):
                            break
        if kid in found:
            continue
        # nonce affine in the counter: s*(u + v*seq) = z + r*d
        distinct = {}
        for sig in lst:
            distinct.setdefault(sig[0], sig)
        cand = list(distinct.values())
        for trio in itertools.islice(itertools.combinations(cand, 3), 4):
            sol = solve([[s, s * q % n, (-r) % n, z] for q, z, r, s in trio])
            if sol and accept(kid, sol[2]):
                break

    # nonces shared between devices: a known key reveals its nonces
    changed = True
    while changed:
        changed = False
        nonces = {}
        for kid, d in found.items():
            for _, z, r, s in sigs.get(kid, []):
                nonces[r] = (z + r * d) * pow(s, -1, n) % n
        for kid, lst in sigs.items():
            if kid in found:
                continue
            for _, z, r, s in lst:
                if r in nonces:
                    k = nonces[r]
                    if accept(kid, (s * k - z) * pow(r, -1, n)) or accept(kid, (s * (n - k) - z) * pow(r, -1, n)):
                        changed = True
                        break

    print(json.dumps({kid: format(found[kid], "064x") for kid in sorted(found)}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1])
