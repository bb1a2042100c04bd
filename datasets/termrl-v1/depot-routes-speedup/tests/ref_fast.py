#!/usr/bin/env python3
"""Cheapest delivery routes, fast: the queries are grouped by destination; one Dijkstra on the reversed
network gives every junction's cost to that destination, and a route is then walked forwards from its
start, taking at each step the smallest-named next junction that stays on a cheapest route (that is
the lexicographically smallest cheapest route, since names are compared first junction first).
usage: routes.py NETWORK.txt QUERIES.txt OUT.txt"""
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
    roads, back = {}, {}
    for lineno, parts in records(path, (3, 4)):
        a, b, cost = parts[0], parts[1], parts[2]
        if not cost.isdigit() or int(cost) < 1:
            fail(path, lineno, "the cost must be an integer >= 1")
        if len(parts) == 4 and parts[3] != "both":
            fail(path, lineno, "the fourth field can only be 'both'")
        c = int(cost)
        roads.setdefault(a, []).append((b, c))
        roads.setdefault(b, [])
        back.setdefault(b, []).append((a, c))
        back.setdefault(a, [])
        if len(parts) == 4:
            roads[b].append((a, c))
            back[a].append((b, c))
    return roads, back


def costs_to(back, dst):
    dist = {dst: 0}
    heap = [(0, dst)]
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist[v]:
            continue
        for u, c in back.get(v, ()):
            nd = d + c
            if nd < dist.get(u, nd + 1):
                dist[u] = nd
                heapq.heappush(heap, (nd, u))
    return dist


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: routes.py NETWORK.txt QUERIES.txt OUT.txt")
    roads, back = read_network(sys.argv[1])
    queries = [parts for _, parts in records(sys.argv[2], (2,))]
    by_dst = {}
    for q, (_, dst) in enumerate(queries):
        by_dst.setdefault(dst, []).append(q)
    result = [None] * len(queries)
    for dst, qs in by_dst.items():
        dist = costs_to(back, dst)
        step = {}
        for q in qs:
            src = queries[q][0]
            if src not in dist:
                continue
            path = [src]
            v = src
            while v != dst:
                nxt = step.get(v)
                if nxt is None:
                    dv = dist[v]
                    nxt = min(u for u, c in roads[v] if dist.get(u) == dv - c)
                    step[v] = nxt
                path.append(nxt)
                v = nxt
            result[q] = (dist[src], path)
    lines = []
    total = found = missing = 0
    for (src, dst), r in zip(queries, result):
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
