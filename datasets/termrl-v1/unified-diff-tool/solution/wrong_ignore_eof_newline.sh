#!/bin/bash
# Ignores missing trailing newlines (never emits the no-newline marker).
set -euo pipefail
cat > /app/udiff.py <<'PY'
import sys


def read_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
        return lines, True
    return lines, False


def myers(a, b):
    """Return list of ('=', i, j) / ('-', i, None) / ('+', None, j) ops; minimal edit script."""
    n, m = len(a), len(b)
    maxd = n + m
    v = {1: 0}
    trace = []
    for d in range(maxd + 1):
        trace.append(dict(v))
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[k - 1] < v[k + 1]):
                x = v[k + 1]
            else:
                x = v[k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[k] = x
            if x >= n and y >= m:
                return backtrack(trace, a, b, d)
    raise AssertionError


def backtrack(trace, a, b, dfinal):
    x, y = len(a), len(b)
    ops = []
    for d in range(dfinal, -1, -1):
        v = trace[d]
        k = x - y
        if d == 0:
            while x > 0 and y > 0:
                x -= 1; y -= 1
                ops.append(("=", x, y))
            break
        if k == -d or (k != d and v[k - 1] < v[k + 1]):
            pk = k + 1
        else:
            pk = k - 1
        px = v[pk]
        py = px - pk
        while x > px and y > py:
            x -= 1; y -= 1
            ops.append(("=", x, y))
        if x == px:
            y -= 1
            ops.append(("+", None, y))
        else:
            x -= 1
            ops.append(("-", x, None))
    ops.reverse()
    return ops


def diff_ops(a, b):
    # trim common prefix/suffix, then Myers on the middle (keeps minimality)
    pre = 0
    while pre < len(a) and pre < len(b) and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < len(a) - pre and suf < len(b) - pre and a[-1 - suf] == b[-1 - suf]:
        suf += 1
    ops = [("=", i, i) for i in range(pre)]
    mid = myers(a[pre:len(a) - suf], b[pre:len(b) - suf])
    for op, i, j in mid:
        ops.append((op, None if i is None else i + pre, None if j is None else j + pre))
    for t in range(suf):
        ops.append(("=", len(a) - suf + t, len(b) - suf + t))
    return ops


def rng(start, count):
    if count == 0:
        return f"{start},0"
    return f"{start + 1},{count}"


def main(argv):
    ctx = 3
    args = list(argv)
    try:
        if args[:1] == ["-U"]:
            ctx = int(args[1]); args = args[2:]
        elif args and args[0].startswith("-U"):
            ctx = int(args[0][2:]); args = args[1:]
        if ctx < 0 or len(args) != 2:
            raise ValueError
    except (ValueError, IndexError):
        print("usage: udiff.py [-U N] OLD NEW", file=sys.stderr)
        return 2
    try:
        a, a_nl = read_lines(args[0])
        b, b_nl = read_lines(args[1])
    except OSError as e:
        print(f"udiff: {e}", file=sys.stderr)
        return 2
    if a == b and a_nl == b_nl:
        return 0
    # represent last line without newline as distinct token so it diffs correctly
    A = [(l, True) for l in a]
    B = [(l, True) for l in b]
    ops = diff_ops(A, B)
    changes = [i for i, o in enumerate(ops) if o[0] != "="]
    groups = []
    for ci in changes:
        if groups and ci - groups[-1][1] <= 2 * ctx + 1:
            groups[-1][1] = ci
        else:
            groups.append([ci, ci])
    out = [f"--- {args[0]}\n", f"+++ {args[1]}\n"]
    for g0, g1 in groups:
        s = max(0, g0 - ctx)
        e = min(len(ops), g1 + ctx + 1)
        seg = ops[s:e]
        a_start = next((o[1] for o in ops[s:] if o[1] is not None), len(A))
        b_start = next((o[2] for o in ops[s:] if o[2] is not None), len(B))
        a_cnt = sum(1 for o in seg if o[0] != "+")
        b_cnt = sum(1 for o in seg if o[0] != "-")
        out.append(f"@@ -{rng(a_start, a_cnt)} +{rng(b_start, b_cnt)} @@\n")
        for op, i, j in seg:
            line, nl = (A[i] if op != "+" else B[j])
            mark = {"=": " ", "-": "-", "+": "+"}[op]
            out.append(mark + line + "\n")
            if not nl:
                out.append("\\ No newline at end of file\n")
    sys.stdout.buffer.write("".join(out).encode("utf-8", "surrogateescape"))
    return 1


sys.exit(main(sys.argv[1:]))
PY
