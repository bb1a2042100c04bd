"""/app/frobenius on coin sets drawn at test time: small ones against a brute-force table, two coins
against the closed form, large ones against a Dijkstra over residues written here; each run is held
to 20 s of CPU time (RLIMIT_CPU)."""
import heapq
import math
import os
import random
import resource
import subprocess

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/frobenius"


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (20, 21))


def run(*coins):
    return subprocess.run([TOOL, *map(str, coins)], capture_output=True, text=True, timeout=900, preexec_fn=limit_cpu)


def answer(coins):
    r = run(*coins)
    assert r.returncode == 0, f"{coins}: exit {r.returncode} (killed by the CPU limit if -24/-9) {r.stderr[-300:]}"
    return r.stdout


def expected_text(f, g):
    return f"frobenius {f}\ngaps {g}\n"


def brute(coins):
    top = max(coins) ** 2 + 1
    ok = [True] + [False] * top
    for n in range(1, top + 1):
        ok[n] = any(n >= c and ok[n - c] for c in coins)
    gaps = [n for n in range(1, top + 1) if not ok[n]]
    return (max(gaps) if gaps else -1), len(gaps)


def dijkstra(coins):
    coins = sorted(set(coins))
    a = coins[0]
    dist = [None] * a
    heap = [(0, 0)]
    while heap:
        d, r = heapq.heappop(heap)
        if dist[r] is not None:
            continue
        dist[r] = d
        for c in coins[1:]:
            if dist[(d + c) % a] is None:
                heapq.heappush(heap, (d + c, (d + c) % a))
    return max(dist) - a, sum(d // a for d in dist)


def coprime_set(k, lo, hi):
    while True:
        coins = [RNG.randint(lo, hi) for _ in range(k)]
        if math.gcd(*coins) == 1:
            return coins


def test_example_and_small_sets_against_brute_force():
    assert answer([6, 9, 20]) == expected_text(43, 22)
    assert answer([20, 9, 6, 9]) == expected_text(43, 22)
    assert answer([1, 7]) == expected_text(-1, 0)
    assert answer([2, 3]) == expected_text(1, 1)
    for _ in range(40):
        coins = [RNG.randint(2, 45) for _ in range(RNG.randint(2, 5))]
        if math.gcd(*coins) != 1:
            assert answer(coins) == "infinite\n", coins
            continue
        assert answer(coins) == expected_text(*brute(coins)), coins


def test_two_large_coins_closed_form():
    for _ in range(3):
        a, b = coprime_set(2, 10 ** 5, 10 ** 6)
        assert answer([a, b]) == expected_text(a * b - a - b, (a - 1) * (b - 1) // 2), (a, b)


def test_three_to_five_coins_medium():
    for _ in range(6):
        coins = coprime_set(RNG.randint(3, 5), 500, 20000)
        assert answer(coins) == expected_text(*dijkstra(coins)), coins


def test_large_smallest_coin_within_the_cpu_bar():
    coins = [RNG.randint(3 * 10 ** 5, 4 * 10 ** 5)] + [RNG.randint(4 * 10 ** 5, 10 ** 6) for _ in range(2)]
    while math.gcd(*coins) != 1:
        coins[-1] += 1
    f, g = dijkstra(coins)
    assert f > 10 ** 8
    assert answer(coins) == expected_text(f, g), coins
    coins = [RNG.randint(10 ** 5, 15 * 10 ** 4)] + [RNG.randint(15 * 10 ** 4, 10 ** 6) for _ in range(7)]
    while math.gcd(*coins) != 1:
        coins[-1] += 1
    assert answer(coins) == expected_text(*dijkstra(coins)), coins


def test_non_coprime_and_bad_arguments():
    g = RNG.randint(2, 50)
    assert answer([g * RNG.randint(1, 1000) for _ in range(4)] + [g]) == "infinite\n"
    for args in ([], [5], ["3", "x"], ["0", "5"], [str(10 ** 6 + 1), "3"], ["-3", "5"], ["2.5", "3"], list(range(2, 11))):
        r = run(*args)
        assert r.returncode == 2 and r.stdout == "" and r.stderr.strip(), args
