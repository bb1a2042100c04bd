#!/bin/bash
set -euo pipefail
cat > /app/seats.py <<'PY'
import sys
from itertools import combinations

P = 1_000_000_007


def small_count(n, offsets):
    """permanent of the n x n circulant 0/1 matrix (subset DP), n small."""
    allowed = sorted({d % n for d in offsets})
    dp = {0: 1}
    for i in range(n):
        nxt = {}
        for mask, v in dp.items():
            for d in allowed:
                c = (i + d) % n
                if not mask >> c & 1:
                    m2 = mask | 1 << c
                    nxt[m2] = (nxt.get(m2, 0) + v) % P
        dp = nxt
    return dp.get((1 << n) - 1, 0) % P


def transfer(offsets, w, k):
    """Transfer matrix on the states with k used columns.

    State before row i: which of the columns i-w .. i+w-1 are already taken by the rows before it
    (bit t <-> column i-w+t). The number of taken columns never changes along a walk (it is w plus
    the net number of rows whose seat lies past the cut), so the matrix splits into blocks by k.
    """
    states = [sum(1 << t for t in c) for c in combinations(range(2 * w), k)]
    index = {s: j for j, s in enumerate(states)}
    T = [[0] * len(states) for _ in states]
    for s in states:
        for d in offsets:
            bit = 1 << (d + w)  # column i+d; bit 2w is column i+w, never taken yet
            if s & bit:
                continue
            m = s | bit
            if not m & 1:  # column i-w would never be filled
                continue
            T[index[s]][index[m >> 1]] += 1
    return T


def matmul(A, B):
    n = len(A)
    Bt = list(zip(*B))
    return [[sum(a * b for a, b in zip(row, col)) % P for col in Bt] for row in A]


def count(n, offsets):
    w = max(abs(d) for d in offsets)
    if w == 0:
        return 1
    if n <= 2 * w:
        return small_count(n, offsets)
    total = 0
    for k in range(2 * w + 1):
        total += trace_power(transfer(offsets, w, k), n)
    return total % P


def trace_power(T, n):
    size = len(T)
    R = [[int(i == j) for j in range(size)] for i in range(size)]
    e = n
    while e:
        if e & 1:
            R = matmul(R, T)
        e >>= 1
        if e:
            T = matmul(T, T)
    return sum(R[i][i] for i in range(size))


def main():
    for line in open(sys.argv[1]):
        parts = line.split()
        if not parts:
            continue
        n = int(parts[0])
        offsets = sorted({int(x) for x in parts[1].split(",")})
        print(count(n, offsets))


main()
PY
