#!/usr/bin/env python3
"""Near-duplicate names in a roster, fast: records with equal keys are handled once; candidate key
pairs come from a shared deletion variant (every key with up to K characters removed: an edit of
each kind -- insertion, deletion, substitution or adjacent swap -- costs at most one removal on each
side), and each candidate is checked with an OSA distance banded to |i - j| <= K.
usage: near_dupes.py NAMES.txt REPORT.txt [--max-dist K]"""
import sys


def key(name):
    return " ".join(name.casefold().split())


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
        sys.stderr.write("usage: near_dupes.py NAMES.txt REPORT.txt [--max-dist K]\n")
        sys.exit(2)
    return pos[0], pos[1], k


def osa_within(a, b, k):
    """The OSA distance of a and b when it is at most k, else k + 1 (cells with |i - j| > k hold k + 1)."""
    la, lb = len(a), len(b)
    if abs(la - lb) > k:
        return k + 1
    big = k + 1
    prev2 = None
    prev = [j if j <= k else big for j in range(lb + 1)]
    for i in range(1, la + 1):
        cur = [big] * (lb + 1)
        if i <= k:
            cur[0] = i
        lo, hi = max(1, i - k), min(lb, i + k)
        ai = a[i - 1]
        best = cur[0]
        for j in range(lo, hi + 1):
            v = prev[j - 1] + (ai != b[j - 1])
            w = prev[j] + 1
            if w < v:
                v = w
            w = cur[j - 1] + 1
            if w < v:
                v = w
            if i > 1 and j > 1 and ai == b[j - 2] and a[i - 2] == b[j - 1]:
                w = prev2[j - 2] + 1
                if w < v:
                    v = w
            if v > big:
                v = big
            cur[j] = v
            if v < best:
                best = v
        if best > k:
            return big
        prev2, prev = prev, cur
    return prev[lb]


def deletions(s, k):
    out = {s}
    layer = {s}
    for _ in range(k):
        layer = {t[:i] + t[i + 1:] for t in layer for i in range(len(t))}
        out |= layer
    return out


def main():
    src, out, k = parse_args(sys.argv[1:])
    rows = read(src)
    n = len(rows)
    uid = {}
    owners = []
    for i, (_, kk) in enumerate(rows):
        u = uid.get(kk)
        if u is None:
            u = uid[kk] = len(owners)
            owners.append([])
        owners[u].append(i)
    ukeys = list(uid)
    index = {}
    if k:
        for u, s in enumerate(ukeys):
            for t in deletions(s, k):
                lst = index.get(t)
                if lst is None:
                    index[t] = [u]
                else:
                    lst.append(u)
    cand = set()
    for lst in index.values():
        m = len(lst)
        if m > 1:
            for x in range(m):
                a = lst[x]
                for y in range(x + 1, m):
                    cand.add((a, lst[y]))
    pairs = []
    for u in range(len(owners)):
        o = owners[u]
        for x in range(len(o)):
            for y in range(x + 1, len(o)):
                pairs.append((o[x], o[y], 0))
    for a, b in cand:
        d = osa_within(ukeys[a], ukeys[b], k)
        if d <= k:
            for i in owners[a]:
                for j in owners[b]:
                    pairs.append((i, j, d) if i < j else (j, i, d))
    pairs.sort()

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
