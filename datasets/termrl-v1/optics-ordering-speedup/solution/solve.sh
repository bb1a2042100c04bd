#!/bin/bash
# Neighbour lists from a k-d tree (radius a hair larger, then the original exact integer test), core
# distances by sorting each list, and the seed list as a heap of (reachability, point) with stale
# entries skipped, which picks the same next point as the original min over (reachability, point).
set -euo pipefail
cat > /app/optics/optics.py <<'PY'
#!/usr/bin/env python3
"""OPTICS ordering of a 2-D point set (fast version): the same ordering, distances and labels.

Neighbours come from a k-d tree queried with a slightly larger radius and filtered with the
original's exact test (integer squared distance <= eps * eps); the seed list is a heap of
(reachability, point) with stale entries skipped, which picks the same point as the original's
min over (reachability, point)."""
import heapq
import math
import sys

import numpy as np
from scipy.spatial import cKDTree


def parse_args(argv):
    opts = {"--eps": None, "--min-pts": None, "--cut": None}
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] in opts:
            if i + 1 >= len(argv):
                sys.exit(f"optics.py: {argv[i]} needs a value")
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    if len(pos) != 2 or opts["--eps"] is None or opts["--min-pts"] is None:
        sys.exit("usage: optics.py POINTS.txt OUT.tsv --eps E --min-pts K [--cut C]")
    eps = float(opts["--eps"])
    min_pts = int(opts["--min-pts"])
    cut = eps if opts["--cut"] is None else float(opts["--cut"])
    if not eps >= 0 or min_pts < 1:
        sys.exit("optics.py: --eps must be >= 0 and --min-pts >= 1")
    return pos[0], pos[1], eps, min_pts, cut


def read_points(path):
    xs, ys = [], []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            parts = s.split()
            if len(parts) != 2:
                sys.exit(f"optics.py: {path}:{lineno}: expected two integers")
            xs.append(int(parts[0]))
            ys.append(int(parts[1]))
    return np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int64)


def neighbour_lists(x, y, eps):
    n = len(x)
    eps2 = eps * eps
    if n:
        tree = cKDTree(np.column_stack([x, y]).astype(np.float64))
        pairs = tree.query_pairs(math.nextafter(eps, math.inf) + 1e-6 * (1 + eps), output_type="ndarray")
    else:
        pairs = np.zeros((0, 2), dtype=np.int64)
    a, b = pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)
    d2 = (x[a] - x[b]) ** 2 + (y[a] - y[b]) ** 2
    keep = d2 <= eps2
    a, b, d2 = a[keep], b[keep], d2[keep]
    selfs = np.arange(n, dtype=np.int64)
    src = np.concatenate([a, b, selfs])
    dst = np.concatenate([b, a, selfs])
    dist = np.sqrt(np.concatenate([d2, d2, np.zeros(n, dtype=np.int64)]).astype(np.float64))
    o = np.lexsort((dist, src))
    src, dst, dist = src[o], dst[o], dist[o]
    start = np.searchsorted(src, np.arange(n + 1))
    return start, dst, dist


def main():
    src, out, eps, min_pts, cut = parse_args(sys.argv[1:])
    x, y = read_points(src)
    n = len(x)
    start, nq, nd = neighbour_lists(x, y, eps)
    count = np.diff(start)
    core = [None] * n
    has = np.flatnonzero(count >= min_pts)
    for p, c in zip(has.tolist(), nd[start[has] + min_pts - 1].tolist()):
        core[p] = c
    start = start.tolist()
    nq = nq.tolist()
    nd = nd.tolist()
    processed = [False] * n
    reach = [None] * n
    order = []
    push, pop = heapq.heappush, heapq.heappop
    heap = []

    def expand(p, c):
        for k in range(start[p], start[p + 1]):
            o = nq[k]
            if processed[o]:
                continue
            d = nd[k]
            r = d if d > c else c
            ro = reach[o]
            if ro is None or r < ro:
                reach[o] = r
                push(heap, (r, o))

    for p in range(n):
        if processed[p]:
            continue
        processed[p] = True
        order.append(p)
        if core[p] is None:
            continue
        expand(p, core[p])
        while heap:
            r, q = pop(heap)
            if processed[q] or r != reach[q]:
                continue
            processed[q] = True
            order.append(q)
            if core[q] is not None:
                expand(q, core[q])
    cluster = -1
    lines = ["pos\tpoint\treach\tcore\tcluster\n"]
    for k, p in enumerate(order):
        r, c = reach[p], core[p]
        if r is None or r > cut:
            if c is not None and c <= cut:
                cluster += 1
                label = cluster
            else:
                label = -1
        else:
            label = cluster
        lines.append(f"{k}\t{p}\t{'-' if r is None else repr(r)}\t{'-' if c is None else repr(c)}\t{label}\n")
    with open(out, "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
PY
