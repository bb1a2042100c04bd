#!/bin/bash
set -euo pipefail
cat > /app/balance.py <<'PY'
import sys


def fail(msg):
    sys.stderr.write(msg + "\n")
    sys.exit(2)


def parse(argv):
    w = None
    i = 0
    while i < len(argv):
        if argv[i] == "--width" and i + 1 < len(argv):
            w = argv[i + 1]
            i += 2
        elif argv[i].startswith("--width="):
            w = argv[i][8:]
            i += 1
        else:
            fail(f"bad argument {argv[i]}")
    if w is None:
        fail("--width is required")
    try:
        w = int(w)
    except ValueError:
        fail("--width must be an integer")
    if w < 1:
        fail("--width must be >= 1")
    return w


def layout(words, N):
    n = len(words)
    INF = float("inf")
    best = [INF] * (n + 1)
    nxt = [0] * (n + 1)
    best[n] = 0
    for i in range(n - 1, -1, -1):
        if len(words[i]) > N:
            best[i] = (0 if i + 1 == n else 0) + best[i + 1]
            nxt[i] = i + 1
            continue
        length = -1
        for j in range(i, n):
            if len(words[j]) > N:
                break
            length += len(words[j]) + 1
            if length > N:
                break
            cost = 0 if j + 1 == n else (N - length) ** 2
            if cost + best[j + 1] < best[i]:
                best[i] = cost + best[j + 1]
                nxt[i] = j + 1
    lines, i = [], 0
    while i < n:
        lines.append(" ".join(words[i:nxt[i]]))
        i = nxt[i]
    return lines


def main():
    N = parse(sys.argv[1:])
    paras, cur = [], []
    for line in sys.stdin.read().split("\n"):
        if line.strip():
            cur.extend(line.split())
        elif cur:
            paras.append(cur)
            cur = []
    if cur:
        paras.append(cur)
    sys.stdout.write("\n".join("".join(l + "\n" for l in layout(p, N)) for p in paras))


main()
PY
