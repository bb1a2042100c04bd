#!/usr/bin/env python3
"""Overlap report for room bookings, O(n log n): clash counts by binary search over the sorted
starts and ends, the peak by a sweep (starts before ends at equal times, since both ends are
included), blocks by merging bookings sorted by start.  usage: overlaps.py BOOKINGS.txt REPORT.txt"""
import sys
from bisect import bisect_left, bisect_right


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
        sys.exit("usage: overlaps.py BOOKINGS.txt REPORT.txt")
    rows = read(sys.argv[1])
    n = len(rows)
    starts = sorted(r[1] for r in rows)
    ends = sorted(r[2] for r in rows)
    out = [f"{ident} {n - 1 - (n - bisect_right(starts, b)) - bisect_left(ends, a)}\n" for ident, a, b in rows]
    events = [(a, 0) for a in starts] + [(b, 1) for b in ends]
    events.sort()
    depth = best = 0
    best_at = None
    for t, kind in events:
        if kind == 0:
            depth += 1
            if depth > best:
                best, best_at = depth, t
        else:
            depth -= 1
    out.append(f"peak {best} at {'-' if best_at is None else best_at}\n")
    blocks = 0
    reach = None
    for a, b in sorted((r[1], r[2]) for r in rows):
        if reach is None or a > reach:
            blocks += 1
            reach = b
        elif b > reach:
            reach = b
    out.append(f"blocks {blocks}\n")
    with open(sys.argv[2], "w") as f:
        f.writelines(out)


if __name__ == "__main__":
    main()
