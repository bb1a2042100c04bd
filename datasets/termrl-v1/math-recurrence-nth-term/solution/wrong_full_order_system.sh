#!/bin/bash
# Mistake: assumes the order is exactly m // 2 and solves the Hankel system for the coefficients,
# then iterates the recurrence term by term.
set -euo pipefail
cat > /app/nth.py <<'PY'
import sys

P = 998244353
data = open(sys.argv[1]).read().split()
N, m = int(data[0]), int(data[1])
a = [int(x) for x in data[2:2 + m]]
if N < m:
    print(a[N])
    sys.exit()
d = m // 2
# rows: a_{d+i} = sum_j c_j a_{d+i-1-j}
A = [[a[d + i - 1 - j] for j in range(d)] + [a[d + i]] for i in range(d)]
for col in range(d):
    piv = next(r for r in range(col, d) if A[r][col] % P)
    A[col], A[piv] = A[piv], A[col]
    inv = pow(A[col][col], P - 2, P)
    A[col] = [v * inv % P for v in A[col]]
    for r in range(d):
        if r != col and A[r][col]:
            f = A[r][col]
            A[r] = [(x - f * y) % P for x, y in zip(A[r], A[col])]
c = [A[i][d] for i in range(d)]
seq = a[:]
while len(seq) <= min(N, 2_000_000):
    seq.append(sum(c[j] * seq[-1 - j] for j in range(d)) % P)
print(seq[N] if N < len(seq) else seq[-1])
PY
