#!/usr/bin/env python3
"""Overlap report for room bookings.

usage: overlaps.py BOOKINGS.txt REPORT.txt

BOOKINGS.txt: one booking per line, "<id> <start> <end>" (blank-separated; id is any word, start and
end are integers, start <= end); blank lines and lines starting with '#' are skipped.  A booking
covers every time t with start <= t <= end (both ends included), so two bookings clash when they
share at least one time, touching ends included.

REPORT.txt:
    "<id> <number of other bookings it clashes with>" for every booking, in file order
    then "peak <largest number of bookings covering one time> at <the smallest such time>"
        ("peak 0 at -" when there are no bookings)
    then "blocks <number of maximal groups of bookings chained together by clashes>"
Exit status 1, with a message naming the line, on a malformed line or start > end.
"""
import sys


def read(path):
    rows = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            parts = s.split()
            try:
                if len(parts) != 3:
                    raise ValueError
                ident, start, end = parts[0], int(parts[1]), int(parts[2])
            except ValueError:
                sys.stderr.write(f"overlaps.py: {path}:{lineno}: expected '<id> <start> <end>'\n")
                sys.exit(1)
            if start > end:
                sys.stderr.write(f"overlaps.py: {path}:{lineno}: start after end\n")
                sys.exit(1)
            rows.append((ident, start, end))
    return rows


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = read(sys.argv[1])
    n = len(rows)
    out = []
    for i, (ident, a, b) in enumerate(rows):
        count = 0
        for j, (_, c, d) in enumerate(rows):
            if i != j and c <= b and a <= d:
                count += 1
        out.append(f"{ident} {count}\n")

    best, best_at = 0, None
    for _, a, _ in rows:
        for t in (a,):
            depth = sum(1 for _, c, d in rows if c <= t <= d)
            if depth > best or (depth == best and best_at is not None and t < best_at):
                best, best_at = depth, t
    out.append(f"peak {best} at {'-' if best_at is None else best_at}\n")

    seen = [False] * n
    blocks = 0
    for i in range(n):
        if seen[i]:
            continue
        blocks += 1
        seen[i] = True
        stack = [i]
        while stack:
            k = stack.pop()
            _, a, b = rows[k]
            for j in range(n):
                if not seen[j] and rows[j][1] <= b and a <= rows[j][2]:
                    seen[j] = True
                    stack.append(j)
    out.append(f"blocks {blocks}\n")
    with open(sys.argv[2], "w") as f:
        f.writelines(out)


if __name__ == "__main__":
    main()
