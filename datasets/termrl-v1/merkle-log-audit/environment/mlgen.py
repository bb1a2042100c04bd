"""Merkle-tree transparency log (RFC 9162 style hashing) test material: trees, proofs by the recursive
definitions, and mutated proofs that an auditor must reject."""
import base64
import hashlib
import json
import os
import random


def H(b):
    return hashlib.sha256(b).digest()


def leaf_hash(d):
    return H(b"\x00" + d)


def split(n):
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(D):
    if not D:
        return H(b"")
    if len(D) == 1:
        return leaf_hash(D[0])
    k = split(len(D))
    return H(b"\x01" + mth(D[:k]) + mth(D[k:]))


def path(m, D):
    n = len(D)
    if n <= 1:
        return []
    k = split(n)
    if m < k:
        return path(m, D[:k]) + [mth(D[k:])]
    return path(m - k, D[k:]) + [mth(D[:k])]


def subproof(m, D, b):
    n = len(D)
    if m == n:
        return [] if b else [mth(D)]
    k = split(n)
    if m <= k:
        return subproof(m, D[:k], b) + [mth(D[k:])]
    return subproof(m - k, D[k:], False) + [mth(D[:k])]


def proof(m, D):
    return subproof(m, D, True) if 0 < m < len(D) else []


def b64(x):
    return base64.b64encode(x).decode()


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    N = r.randint(70, 110)
    D = [f"entry-{i}:{r.getrandbits(64):016x}".encode() + bytes(r.randrange(256) for _ in range(r.randint(0, 12)))
         for i in range(N)]
    with open(os.path.join(out, "leaves.txt"), "w") as f:
        f.write("".join(b64(d) + "\n" for d in D))
    # a forked log that shares a prefix but then diverges
    fork_at = r.randint(20, 40)
    F = D[:fork_at] + [d + b"!" for d in D[fork_at:]]

    inc, con, exp_inc, exp_con = [], [], {}, {}
    cid = [0]

    def add_inc(i, n, leaf, pth, root, valid):
        cid[0] += 1
        k = f"inc-{cid[0]:03d}"
        inc.append({"id": k, "leaf": b64(leaf), "leaf_index": i, "tree_size": n, "root_hash": b64(root),
                    "audit_path": [b64(x) for x in pth]})
        exp_inc[k] = valid

    def add_con(m, n, h1, h2, pr, valid):
        cid[0] += 1
        k = f"con-{cid[0]:03d}"
        con.append({"id": k, "first": m, "second": n, "first_hash": b64(h1), "second_hash": b64(h2),
                    "proof": [b64(x) for x in pr]})
        exp_con[k] = valid

    def mutate(pr):
        kinds = ["flip", "drop", "extra", "swap", "reverse"] if len(pr) >= 2 else ["flip", "drop", "extra"]
        kind = r.choice(kinds) if pr else "extra"
        pr = list(pr)
        if kind == "flip":
            j = r.randrange(len(pr))
            b = bytearray(pr[j])
            b[r.randrange(32)] ^= 1 << r.randrange(8)
            pr[j] = bytes(b)
        elif kind == "drop":
            pr.pop(r.randrange(len(pr)))
        elif kind == "extra":
            pr.insert(r.randint(0, len(pr)), H(r.getrandbits(64).to_bytes(8, "big")))
        elif kind == "swap":
            j = r.randrange(len(pr) - 1)
            pr[j], pr[j + 1] = pr[j + 1], pr[j]
        else:
            pr.reverse()
        return pr

    sizes = sorted(set([1, 2, 3, 4, 7, 8, 16, 31, 32, 33, 64, N] + [r.randint(1, N) for _ in range(14)]))
    sizes = [s for s in sizes if s <= N]
    for _ in range(60):
        n = r.choice(sizes)
        i = r.randrange(n)
        Dn = D[:n]
        pth, root = path(i, Dn), mth(Dn)
        add_inc(i, n, D[i], pth, root, True)
        roll = r.random()
        if roll < 0.35 and pth:
            add_inc(i, n, D[i], mutate(pth), root, False)
        elif roll < 0.5 and n > 1:
            j = (i + 1) % n
            add_inc(j, n, D[i], pth, root, False)                  # path for another index
        elif roll < 0.6:
            add_inc(i, n, D[i] + b"x", pth, root, False)           # other leaf content
        elif roll < 0.7:
            add_inc(n, n, D[i], pth, root, False)                  # index out of range
    for _ in range(70):
        n = r.choice(sizes)
        m = r.randint(1, n)
        h1, h2, pr = mth(D[:m]), mth(D[:n]), proof(m, D[:n])
        add_con(m, n, h1, h2, pr, True)
        roll = r.random()
        if roll < 0.4 and m < n:
            add_con(m, n, h1, h2, mutate(pr), False)
        elif roll < 0.5 and 1 < m < n:
            add_con(m, n, h1, h2, proof(m - 1, D[:n]), False)       # proof for another first size
        elif roll < 0.6 and m < n and n > fork_at:
            add_con(m, n, h1, h2, proof(m, F[:n]), False)           # proof from the forked log
        elif roll < 0.7 and m < n and (m & (m - 1)) == 0:
            add_con(m, n, h1, h2, [h1] + pr, False)                 # power of two: first hash included
        elif roll < 0.8 and m < n:
            add_con(m, n, h1, mth(F[:n]) if n > fork_at else H(b"x"), pr, False)
        elif roll < 0.85:
            add_con(m, m, h1, h1, [], True)
            add_con(m, m, h1, mth(D[:m + 1]) if m < N else H(b"y"), [], False)
    # a split view: the same size signed with two roots; both proofs verified against the fork
    n = r.randint(fork_at + 5, N)
    m = r.randint(max(1, fork_at - 15), fork_at)
    add_con(m, n, mth(F[:m]), mth(F[:n]), proof(m, F[:n]), True)  # consistent within the forked view
    order = list(range(len(inc)))
    r.shuffle(order)
    inc = [inc[k] for k in order]
    order = list(range(len(con)))
    r.shuffle(order)
    con = [con[k] for k in order]
    with open(os.path.join(out, "checks.json"), "w") as f:
        json.dump({"inclusion": inc, "consistency": con}, f, indent=1)
    return D, {"inclusion": exp_inc, "consistency": exp_con}
