#!/bin/bash
set -euo pipefail
cat > /app/snf.py <<'PY'
import sys


def smith_invariants(M):
    A = [row[:] for row in M]
    m = len(A)
    n = len(A[0]) if m else 0
    diag = []
    t = 0
    while t < min(m, n):
        # pick the smallest non-zero entry of the remaining block as pivot
        best = None
        for i in range(t, m):
            for j in range(t, n):
                if A[i][j] and (best is None or abs(A[i][j]) < abs(A[best[0]][best[1]])):
                    best = (i, j)
        if best is None:
            break
        i, j = best
        A[t], A[i] = A[i], A[t]
        for row in A:
            row[t], row[j] = row[j], row[t]
        while True:
            changed = False
            p = A[t][t]
            for i in range(t + 1, m):          # clear column t
                q = A[i][t] // p
                if q:
                    A[i] = [a - q * b for a, b in zip(A[i], A[t])]
                if A[i][t]:
                    A[t], A[i] = A[i], A[t]
                    changed = True
                    break
            if changed:
                continue
            for j in range(t + 1, n):          # clear row t
                q = A[t][j] // p
                if q:
                    for row in A:
                        row[j] -= q * row[t]
                if A[t][j]:
                    for row in A:
                        row[t], row[j] = row[j], row[t]
                    changed = True
                    break
            if changed:
                continue
            # pivot must divide every remaining entry
            bad = None
            for i in range(t + 1, m):
                for j in range(t + 1, n):
                    if A[i][j] % p:
                        bad = i
                        break
                if bad is not None:
                    break
            if bad is None:
                break
            A[t] = [a + b for a, b in zip(A[t], A[bad])]
        diag.append(abs(A[t][t]))
        t += 1
    return diag


def main():
    data = open(sys.argv[1]).read().split()
    m, n = int(data[0]), int(data[1])
    vals = list(map(int, data[2:2 + m * n]))
    M = [vals[i * n:(i + 1) * n] for i in range(m)]
    inv = smith_invariants(M)
    print(" ".join(map(str, inv)) if inv else "ZERO")


if __name__ == "__main__":
    main()
PY
python3 /app/snf.py /app/example.txt
