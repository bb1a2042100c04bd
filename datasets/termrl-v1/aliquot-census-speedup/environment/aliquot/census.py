#!/usr/bin/env python3
"""Aliquot census of 1..N.

usage: census.py N OUT.txt [--steps S] [--from A]

s(n) is the sum of the proper divisors of n (the divisors below n; s(1) = 0).  The census covers
A <= n <= N (A defaults to 1; S defaults to 30):

    range <A> <N>
    perfect <count> <the perfect numbers, ascending, or "-">      s(n) = n
    abundant <count>                                              s(n) > n
    deficient <count>                                             s(n) < n
    sum <the sum of s(n)>
    amicable <count>, then one line "pair <a> <b>" per pair, ascending a:  a < b <= N, s(a) = b,
        s(b) = a, with A <= a (b may be anywhere in 1..N)
    the aliquot walk of n is n, s(n), s(s(n)), ...; it "terminates" at step k when the k-th value
    is 0, "escapes" at step k when the k-th value exceeds N, and is "open" when neither happens in
    S steps:
    terminates <count>, escapes <count>, open <count>
    longest <k> <n>                       the longest terminating walk: its steps and its smallest n
    then one line "step <k> <count>" per k = 1..S: walks that terminate at step k (zero counts too)
"""
import sys


def proper_sum(n):
    if n == 1:
        return 0
    total = 1
    d = 2
    while d * d <= n:
        if n % d == 0:
            total += d
            if d * d != n:
                total += n // d
        d += 1
    return total


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
        sys.exit(__doc__)
    n = int(pos[0])
    if n < 1 or opts["--steps"] < 1 or not 1 <= opts["--from"] <= n:
        sys.exit("census.py: need N >= 1, S >= 1 and 1 <= A <= N")
    return n, pos[1], opts["--steps"], opts["--from"]


def main():
    n_max, out, steps, start = parse_args(sys.argv[1:])
    s = [0] * (n_max + 1)
    for n in range(1, n_max + 1):
        s[n] = proper_sum(n)
    rng = range(start, n_max + 1)
    perfect = [n for n in rng if s[n] == n]
    abundant = sum(1 for n in rng if s[n] > n)
    deficient = sum(1 for n in rng if s[n] < n)
    total = sum(s[n] for n in rng)
    pairs = []
    for a in rng:
        b = s[a]
        if a < b <= n_max and s[b] == a:
            pairs.append((a, b))
    fate = {"terminates": 0, "escapes": 0, "open": 0}
    by_step = [0] * (steps + 1)
    longest, longest_at = 0, 0
    for n in rng:
        x = n
        for k in range(1, steps + 1):
            x = s[x]
            if x == 0:
                fate["terminates"] += 1
                by_step[k] += 1
                if k > longest:
                    longest, longest_at = k, n
                break
            if x > n_max:
                fate["escapes"] += 1
                break
        else:
            fate["open"] += 1
    with open(out, "w") as f:
        f.write(f"range {start} {n_max}\n")
        f.write(f"perfect {len(perfect)} {' '.join(map(str, perfect)) or '-'}\n")
        f.write(f"abundant {abundant}\n")
        f.write(f"deficient {deficient}\n")
        f.write(f"sum {total}\n")
        f.write(f"amicable {len(pairs)}\n")
        for a, b in pairs:
            f.write(f"pair {a} {b}\n")
        f.write(f"terminates {fate['terminates']}\n")
        f.write(f"escapes {fate['escapes']}\n")
        f.write(f"open {fate['open']}\n")
        f.write(f"longest {longest} {longest_at}\n")
        for k in range(1, steps + 1):
            f.write(f"step {k} {by_step[k]}\n")


if __name__ == "__main__":
    main()
