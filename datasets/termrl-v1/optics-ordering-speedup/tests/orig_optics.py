#!/usr/bin/env python3
"""OPTICS ordering of a 2-D point set, with a DBSCAN-style cut of the ordering.

usage: optics.py POINTS.txt OUT.tsv --eps E --min-pts K [--cut C]

POINTS.txt: one point per line, two integers "x y" separated by blanks; empty lines and lines
starting with '#' are skipped.  Points are numbered from 0 in file order (skipped lines do not
count).  Distances are Euclidean.  q is a neighbour of p when dist(p, q) <= E (p is its own
neighbour).  The core distance of p is the distance to its K-th nearest neighbour, counting p
itself, when p has at least K neighbours; otherwise it is undefined.  C defaults to E.

OUT.tsv: a header line "pos<TAB>point<TAB>reach<TAB>core<TAB>cluster", then one line per point in
OPTICS order: its position in the ordering, its number, its reachability distance and core
distance (repr() of the float, or "-" when undefined) and its cluster at cut C (-1 = noise).
"""
import math
import sys


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
        sys.exit(__doc__)
    eps = float(opts["--eps"])
    min_pts = int(opts["--min-pts"])
    cut = eps if opts["--cut"] is None else float(opts["--cut"])
    if not eps >= 0 or min_pts < 1:
        sys.exit("optics.py: --eps must be >= 0 and --min-pts >= 1")
    return pos[0], pos[1], eps, min_pts, cut


def read_points(path):
    points = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            parts = s.split()
            if len(parts) != 2:
                sys.exit(f"optics.py: {path}:{lineno}: expected two integers")
            points.append((int(parts[0]), int(parts[1])))
    return points


class Optics:
    def __init__(self, points, eps, min_pts):
        self.points = points
        self.eps2 = eps * eps
        self.min_pts = min_pts
        n = len(points)
        self.processed = [False] * n
        self.reach = [None] * n
        self.core = [None] * n
        self.order = []

    def neighbours(self, p):
        px, py = self.points[p]
        found = []
        for q, (qx, qy) in enumerate(self.points):
            dx = qx - px
            dy = qy - py
            d2 = dx * dx + dy * dy
            if d2 <= self.eps2:
                found.append((q, math.sqrt(d2)))
        return found

    def core_distance(self, nbrs):
        if len(nbrs) < self.min_pts:
            return None
        return sorted(d for _, d in nbrs)[self.min_pts - 1]

    def update(self, nbrs, core, seeds):
        for o, d in nbrs:
            if self.processed[o]:
                continue
            r = max(core, d)
            if self.reach[o] is None or r < self.reach[o]:
                self.reach[o] = r
                seeds[o] = r

    def visit(self, p):
        nbrs = self.neighbours(p)
        self.processed[p] = True
        self.order.append(p)
        self.core[p] = self.core_distance(nbrs)
        return nbrs

    def run(self):
        for p in range(len(self.points)):
            if self.processed[p]:
                continue
            nbrs = self.visit(p)
            if self.core[p] is None:
                continue
            seeds = {}
            self.update(nbrs, self.core[p], seeds)
            while seeds:
                q = min(seeds, key=lambda s: (seeds[s], s))
                del seeds[q]
                nq = self.visit(q)
                if self.core[q] is not None:
                    self.update(nq, self.core[q], seeds)


def fmt(v):
    return "-" if v is None else repr(v)


def main():
    src, out, eps, min_pts, cut = parse_args(sys.argv[1:])
    opt = Optics(read_points(src), eps, min_pts)
    opt.run()
    cluster = -1
    with open(out, "w") as f:
        f.write("pos\tpoint\treach\tcore\tcluster\n")
        for k, p in enumerate(opt.order):
            r, c = opt.reach[p], opt.core[p]
            if r is None or r > cut:
                if c is not None and c <= cut:
                    cluster += 1
                    label = cluster
                else:
                    label = -1
            else:
                label = cluster
            f.write(f"{k}\t{p}\t{fmt(r)}\t{fmt(c)}\t{label}\n")


if __name__ == "__main__":
    main()
