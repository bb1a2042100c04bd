#!/usr/bin/env python3
"""Cheapest delivery routes.

usage: routes.py NETWORK.txt QUERIES.txt OUT.txt

NETWORK.txt: one road segment per line, "<from> <to> <cost>" or "<from> <to> <cost> both"
(blank-separated; junction names are any words, the cost an integer >= 1; "both" means the segment
can be driven in both directions at that cost).  Segments may repeat; blank lines and lines starting
with '#' are skipped.
QUERIES.txt: one query per line, "<from> <to>"; blank lines and '#' lines skipped.

OUT.txt, one line per query in file order:
    "<from> <to> <cost> <junction>,<junction>,..."   the route: the cheapest one, and among the
        cheapest ones the smallest in lexicographic order of its list of junction names (names
        compared as strings, the first junction first); a query from a junction to itself costs 0
        and its route is that one junction
    "<from> <to> unreachable"                         when no route exists (a junction that no
        segment names can only reach itself)
then "total <sum of the costs of the routes found> routes <their number> unreachable <number>".
Exit status 1, with a message "PATH:LINE: ..." on stderr, for a malformed line.
"""
import heapq
import sys


def records(path, fields):
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            if len(parts) not in fields:
                fail(path, lineno, "wrong number of fields")
            yield lineno, parts


def fail(path, lineno, why):
    sys.stderr.write(f"routes.py: {path}:{lineno}: {why}\n")
    sys.exit(1)


def read_network(path):
    roads = {}
    for lineno, parts in records(path, (3, 4)):
        a, b, cost = parts[0], parts[1], parts[2]
        if not cost.isdigit() or int(cost) < 1:
            fail(path, lineno, "the cost must be an integer >= 1")
        if len(parts) == 4 and parts[3] != "both":
            fail(path, lineno, "the fourth field can only be 'both'")
        roads.setdefault(a, []).append((b, int(cost)))
        roads.setdefault(b, [])
        if len(parts) == 4:
            roads[b].append((a, int(cost)))
    return roads


def route(roads, src, dst):
    """Dijkstra over (cost, route) labels: the first label of dst taken from the heap is the cheapest
    route, and the smallest one among the cheapest."""
    heap = [(0, (src,))]
    done = set()
    while heap:
        cost, path = heapq.heappop(heap)
        node = path[-1]
        if node in done:
            continue
        if node == dst:
            return cost, path
        done.add(node)
        for nxt, c in roads.get(node, ()):
            if nxt not in done:
                heapq.heappush(heap, (cost + c, path + (nxt,)))
    return None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    roads = read_network(sys.argv[1])
    queries = [parts for _, parts in records(sys.argv[2], (2,))]
    lines = []
    total = found = missing = 0
    for src, dst in queries:
        r = route(roads, src, dst)
        if r is None:
            lines.append(f"{src} {dst} unreachable\n")
            missing += 1
        else:
            lines.append(f"{src} {dst} {r[0]} {','.join(r[1])}\n")
            total += r[0]
            found += 1
    lines.append(f"total {total} routes {found} unreachable {missing}\n")
    with open(sys.argv[3], "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
