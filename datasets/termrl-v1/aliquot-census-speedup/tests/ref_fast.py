#!/usr/bin/env python3
"""The tests' fast reference for census.py: a divisor-sum sieve over d <= sqrt(N) and the walks
advanced for all starting points at once, step by step."""
import math
import sys

import numpy as np


def parse_args(argv):
    opts = {"--steps": 30, "--from": 1}
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] in opts:
            if i + 1 >= len(argv):
                sys.exit(f"census.py: {argv[i]} needs a value")
            opts[argv[i]] = int(argv[i + 1])
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    if len(pos) != 2:
        sys.exit("usage: census.py N OUT.txt [--steps S] [--from A]")
    n = int(pos[0])
    if n < 1 or opts["--steps"] < 1 or not 1 <= opts["--from"] <= n:
        sys.exit("census.py: need N >= 1, S >= 1 and 1 <= A <= N")
    return n, pos[1], opts["--steps"], opts["--from"]


def divisor_sums(n_max):
    sigma = np.zeros(n_max + 1, dtype=np.int64)
    for d in range(1, math.isqrt(n_max) + 1):
        k = np.arange(d, n_max // d + 1, dtype=np.int64)
        sigma[d * k] += d + k
        sigma[d * d] -= d
    s = sigma - np.arange(n_max + 1, dtype=np.int64)
    s[0] = 0
    return s


def main():
    n_max, out, steps, start = parse_args(sys.argv[1:])
    s = divisor_sums(n_max)
    a = np.arange(start, n_max + 1, dtype=np.int64)
    sa = s[start:]
    perfect = a[sa == a].tolist()
    abundant = int(np.count_nonzero(sa > a))
    deficient = int(np.count_nonzero(sa < a))
    total = int(sa.sum())
    cand = (a < sa) & (sa <= n_max)
    pa, pb = a[cand], sa[cand]
    keep = s[pb] == pa
    pairs = list(zip(pa[keep].tolist(), pb[keep].tolist()))
    by_step = [0] * (steps + 1)
    escapes = 0
    longest, longest_at = 0, 0
    ids, x = a, a
    for k in range(1, steps + 1):
        if not len(x):
            break
        x = s[x]
        done = x == 0
        c = int(np.count_nonzero(done))
        if c:
            by_step[k] = c
            longest, longest_at = k, int(ids[done].min())
        up = x > n_max
        escapes += int(np.count_nonzero(up))
        live = ~(done | up)
        ids, x = ids[live], x[live]
    terminates = sum(by_step)
    lines = [f"range {start} {n_max}\n", f"perfect {len(perfect)} {' '.join(map(str, perfect)) or '-'}\n",
             f"abundant {abundant}\n", f"deficient {deficient}\n", f"sum {total}\n", f"amicable {len(pairs)}\n"]
    lines += [f"pair {p} {q}\n" for p, q in pairs]
    lines += [f"terminates {terminates}\n", f"escapes {escapes}\n", f"open {len(x)}\n", f"longest {longest} {longest_at}\n"]
    lines += [f"step {k} {by_step[k]}\n" for k in range(1, steps + 1)]
    with open(out, "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
