#!/usr/bin/env python3
"""Near-duplicate names in a roster.

usage: near_dupes.py NAMES.txt REPORT.txt [--max-dist K]

NAMES.txt (UTF-8): one record per line, "<id><TAB><name>"; the id is the text before the first tab
(not empty, unique in the file), the name is the rest of the line.  Blank lines and lines starting
with '#' are skipped.

Two names are compared by their keys: the name casefolded (str.casefold), runs of whitespace turned
into one space, leading and trailing whitespace removed.  The distance of two keys is the optimal
string alignment distance over their characters (Unicode code points): the fewest insertions,
deletions, substitutions and swaps of two adjacent characters, no character edited twice.  Two
records are near duplicates when their distance is at most K (K = 0..3, default 2).

REPORT.txt:
    "pair <id a> <id b> <distance>" for every near-duplicate pair, a before b in the file; ordered
        by a's position, then b's
    "pairs <number of pairs>"
    "group <size> <ids in file order>" for every group of two or more records chained together by
        near-duplicate pairs, ordered by the position of their first record
    "groups <number of groups>"
Exit status 1, with a message "PATH:LINE: ..." on stderr, for a malformed line or a repeated id;
exit status 2 for a bad command line.
"""
import sys


def key(name):
    return " ".join(name.casefold().split())


def osa(a, b):
    """Optimal string alignment distance (restricted Damerau-Levenshtein)."""
    la, lb = len(a), len(b)
    d = [[0] * (lb + 1) for _ in range(la + 1)]
    for i in range(la + 1):
        d[i][0] = i
    for j in range(lb + 1):
        d[0][j] = j
    for i in range(1, la + 1):
        for j in range(1, lb + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, d[i - 2][j - 2] + 1)
            d[i][j] = v
    return d[la][lb]


def read(path):
    rows, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            ident, tab, name = line.partition("\t")
            if not tab or not ident:
                sys.stderr.write(f"near_dupes.py: {path}:{lineno}: expected '<id><TAB><name>'\n")
                sys.exit(1)
            if ident in seen:
                sys.stderr.write(f"near_dupes.py: {path}:{lineno}: repeated id {ident}\n")
                sys.exit(1)
            seen.add(ident)
            rows.append((ident, key(name)))
    return rows


def parse_args(argv):
    k = 2
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] == "--max-dist":
            if i + 1 >= len(argv) or not argv[i + 1].isdigit() or int(argv[i + 1]) > 3:
                sys.stderr.write("near_dupes.py: --max-dist needs a value 0..3\n")
                sys.exit(2)
            k = int(argv[i + 1])
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    if len(pos) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    return pos[0], pos[1], k


def main():
    src, out, k = parse_args(sys.argv[1:])
    rows = read(src)
    n = len(rows)
    pairs = []
    for i in range(n):
        for j in range(i + 1, n):
            d = osa(rows[i][1], rows[j][1])
            if d <= k:
                pairs.append((i, j, d))

    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j, _ in pairs:
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    members = {}
    for i in range(n):
        members.setdefault(find(i), []).append(i)
    groups = [m for m in members.values() if len(m) > 1]
    groups.sort(key=lambda m: m[0])

    lines = [f"pair {rows[i][0]} {rows[j][0]} {d}\n" for i, j, d in pairs]
    lines.append(f"pairs {len(pairs)}\n")
    lines += [f"group {len(m)} {' '.join(rows[x][0] for x in m)}\n" for m in groups]
    lines.append(f"groups {len(groups)}\n")
    with open(out, "w", encoding="utf-8") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
