#!/bin/bash
# Counts requests as non-blank-after-strip, unlike grep -c . for whitespace-only lines.
set -euo pipefail
cat > /app/report.py <<'PY'
import sys
from collections import Counter


def usage():
    print("usage: report.py [-n N] LOGFILE", file=sys.stderr)
    sys.exit(2)


def main(argv):
    top = 3
    args = list(argv)
    while args and args[0].startswith("-") and args[0] != "-":
        a = args.pop(0)
        if a == "--":
            break
        if a == "-n":
            if not args:
                usage()
            top = args.pop(0)
        elif a.startswith("-n"):
            top = a[2:]
        else:
            usage()
    if len(args) != 1:
        usage()
    try:
        top = int(top)
    except ValueError:
        usage()
    path = args[0]
    try:
        with open(path, "rb") as f:
            data = f.read().decode("latin-1")
    except OSError:
        print(f"cannot read {path}", file=sys.stderr)
        sys.exit(1)
    lines = data.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    requests = sum(1 for l in lines if l.strip())
    rows = [l.split() for l in lines]
    rows = [r for r in rows if r]

    def field(r, i):
        return r[i - 1] if len(r) >= i else ""

    ips = {field(r, 1) for r in rows}
    total = 0
    for r in rows:
        b = field(r, 10)
        if b == "-":
            b = "0"
        try:
            total += int(b)
        except ValueError:
            total += 0
    out = [f"requests: {requests}", f"unique_ips: {len(ips)}", f"bytes: {total}", "top_paths:"]
    paths = Counter(field(r, 7) for r in rows)
    ranked = sorted(paths.items(), key=lambda kv: (-kv[1], kv[0].encode("latin-1")))
    for p, c in ranked[:top]:
        out.append(f"  {p} {c}")
    out.append("status:")
    st = Counter(field(r, 9)[:1] + "xx" for r in rows)
    for s in sorted(st, key=lambda x: x.encode("latin-1")):
        out.append(f"  {s} {st[s]}")
    sys.stdout.write("\n".join(out) + "\n")


main(sys.argv[1:])
PY
