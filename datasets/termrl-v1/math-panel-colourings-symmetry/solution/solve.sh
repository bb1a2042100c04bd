#!/bin/bash
set -euo pipefail
cat > /app/panels.py <<'PY'
import sys
from itertools import permutations, product
from math import factorial


def proper_rows(M, K):
    out = []
    for r in product(range(K), repeat=M):
        if all(r[j] != r[j + 1] for j in range(M - 1)):
            out.append(r)
    return out


def compat(a, b):
    return all(x != y for x, y in zip(a, b))


def walks(rows, length, weight_end):
    """sum over sequences of `length` rows, consecutive compatible, of weight_end(last)."""
    if length == 0:
        return None
    idx = {r: i for i, r in enumerate(rows)}
    nxt = [[idx[b] for b in rows if compat(a, b)] for a in rows]
    vec = [1] * len(rows)
    for _ in range(length - 1):
        new = [0] * len(rows)
        for i, v in enumerate(vec):
            if v:
                for j in nxt[i]:
                    new[j] += v
        vec = new
    return sum(v * weight_end(rows[i]) for i, v in enumerate(vec) if v)


def fixed(N, M, K, g, pi, rows):
    if g in ("id", "h"):
        if g == "id":
            good = [r for r in rows if all(pi[x] == x for x in r)]
        else:
            good = [r for r in rows if all(r[M - 1 - j] == pi[r[j]] for j in range(M))]
        return walks(good, N, lambda r: 1)
    if g == "v":
        sigma = lambda r: tuple(pi[x] for x in r)
    else:
        sigma = lambda r: tuple(pi[x] for x in reversed(r))
    upper = [r for r in rows if sigma(sigma(r)) == r]
    h = N // 2
    if N % 2 == 0:
        return walks(upper, h, lambda r: 1 if compat(r, sigma(r)) else 0)
    mids = [s for s in rows if sigma(s) == s]
    if h == 0:
        return len(mids)
    return walks(upper, h, lambda r: sum(1 for s in mids if compat(r, s) and compat(s, sigma(r))))


def count(N, M, K, mode):
    rows = proper_rows(M, K)
    perms = [tuple(range(K))] if mode == "labelled" else list(permutations(range(K)))
    total = 0
    cache = {}
    for pi in perms:
        # the fixed count only depends on the cycle type of pi
        ct = tuple(sorted(len_cycle(pi, x) for x in range(K)))
        if ct not in cache:
            cache[ct] = sum(fixed(N, M, K, g, pi, rows) for g in ("id", "h", "v", "r"))
        total += cache[ct]
    q, rem = divmod(total, 4 * len(perms))
    assert rem == 0
    return q


def len_cycle(pi, x):
    n, y = 1, pi[x]
    while y != x:
        y = pi[y]
        n += 1
    return n


def main():
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        N, M, K = map(int, parts[:3])
        print(count(N, M, K, parts[3]))


main()
PY
