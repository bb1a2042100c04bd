#!/bin/bash
# Reference solution: RFC 9162-style tree hashing, proof generation by the recursive definitions, and the
# iterative verifiers for inclusion and consistency proofs.
set -e
cat > /app/mlog <<'PY'
#!/usr/bin/env python3
import base64
import hashlib
import json
import sys


def H(b):
    return hashlib.sha256(b).digest()


def node(a, b):
    return H(b"\x01" + a + b)


def split(n):
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(D):
    if not D:
        return H(b"")
    if len(D) == 1:
        return H(b"\x00" + D[0])
    k = split(len(D))
    return node(mth(D[:k]), mth(D[k:]))


def path(m, D):
    if len(D) <= 1:
        return []
    k = split(len(D))
    return path(m, D[:k]) + [mth(D[k:])] if m < k else path(m - k, D[k:]) + [mth(D[:k])]


def subproof(m, D, b):
    n = len(D)
    if m == n:
        return [] if b else [mth(D)]
    k = split(n)
    if m <= k:
        return subproof(m, D[:k], b) + [mth(D[k:])]
    return subproof(m - k, D[k:], False) + [mth(D[:k])]


def verify_inclusion(leaf, index, size, root, pth):
    if index >= size or index < 0:
        return False
    fn, sn, r = index, size - 1, H(b"\x00" + leaf)
    for p in pth:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(first, second, h1, h2, pr):
    if first < 1 or first > second:
        return False
    if first == second:
        return not pr and h1 == h2
    if not pr:
        return False
    if first & (first - 1) == 0:
        pr = [h1] + pr
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = pr[0]
    for c in pr[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node(c, fr)
            sr = node(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == h1 and sr == h2 and sn == 0


def leaves(p):
    return [base64.b64decode(x) for x in open(p).read().split()]


def b64(x):
    return base64.b64encode(x).decode()


def main(a):
    if a[0] == "root":
        print(json.dumps(b64(mth(leaves(a[1])[:int(a[2])]))))
    elif a[0] == "path":
        D = leaves(a[1])[:int(a[3])]
        print(json.dumps([b64(x) for x in path(int(a[2]), D)]))
    elif a[0] == "prove":
        m, D = int(a[2]), leaves(a[1])[:int(a[3])]
        print(json.dumps([b64(x) for x in (subproof(m, D, True) if 0 < m < len(D) else [])]))
    elif a[0] == "verify":
        c = json.load(open(a[1]))
        d = base64.b64decode
        out = {"inclusion": {}, "consistency": {}}
        for x in c.get("inclusion", []):
            out["inclusion"][x["id"]] = verify_inclusion(d(x["leaf"]), x["leaf_index"], x["tree_size"],
                                                         d(x["root_hash"]), [d(p) for p in x["audit_path"]])
        for x in c.get("consistency", []):
            out["consistency"][x["id"]] = verify_consistency(x["first"], x["second"], d(x["first_hash"]),
                                                             d(x["second_hash"]), [d(p) for p in x["proof"]])
        print(json.dumps(out, indent=1, sort_keys=True))
    else:
        sys.exit("usage: mlog root|path|prove|verify ...")


main(sys.argv[1:])
PY
chmod +x /app/mlog
