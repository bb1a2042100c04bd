import random
import resource
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import coprob_check  # noqa: E402  (value iteration, independent of the task's algorithm)
import graphgen  # noqa: E402


def run(tmp_path, n, edges, exits, queries):
    f = tmp_path / "g.txt"
    f.write_text(graphgen.text(n, edges, exits, queries))
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = kids.ru_utime + kids.ru_stime
    r = subprocess.run([sys.executable, "/app/coprob.py", str(f)], capture_output=True, text=True, timeout=600)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.strip().splitlines(), kids.ru_utime + kids.ru_stime - before


def expected(n, edges, exits, queries):
    adj = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    best = coprob_check.outcomes(n, adj, set(exits))
    out = []
    for c, r, t in queries:
        w = best.get((c, r, 0 if t == "C" else 1))
        out.append("DRAW" if w is None else ("COP " if w[0] == 0 else "ROBBER ") + str(w[1]))
    return out


def test_example(tmp_path):
    got = subprocess.run([sys.executable, "/app/coprob.py", "/app/examples/small.txt"], capture_output=True,
                         text=True, timeout=60).stdout.strip().splitlines()
    assert got == open("/app/examples/small.answers").read().strip().splitlines()


def test_hand_made_positions(tmp_path):
    # path 0-1-2-3 with exit 3; a lone vertex 4; triangle 5-6-7
    n, edges, exits = 8, [(0, 1), (1, 2), (2, 3), (5, 6), (6, 7), (5, 7)], [3]
    queries = [(1, 1, "R"), (0, 3, "C"), (0, 4, "R"), (0, 4, "C"), (0, 2, "R"), (2, 0, "R"), (1, 2, "C"),
               (5, 6, "R"), (5, 7, "C"), (0, 6, "C")]
    got, _ = run(tmp_path, n, edges, exits, queries)
    assert got == expected(n, edges, exits, queries)
    assert got[:5] == ["COP 0", "ROBBER 0", "COP 0", "COP 1", "ROBBER 1"]


@pytest.mark.parametrize("seed", range(6))
def test_small_random_graphs(tmp_path, seed):
    rng = random.Random(500 + seed)
    n = rng.randrange(3, 11)
    _, edges = graphgen.random_graph(rng, n, rng.randrange(n - 1, min(2 * n, n * (n - 1) // 2)))
    exits = sorted(rng.sample(range(n), rng.randrange(0, 3)))
    cops = [c for c in range(n) if c not in exits]
    queries = [(c, r, t) for c in cops for r in range(n) for t in "CR"]
    got, _ = run(tmp_path, n, edges, exits, queries)
    assert got == expected(n, edges, exits, queries)


@pytest.mark.parametrize("kind,seed", [("grid", 601), ("sparse", 602), ("dense", 603), ("grid", 604)])
def test_medium_graphs(tmp_path, kind, seed):
    n, edges, exits, queries = graphgen.make(random.Random(seed), kind)
    got, _ = run(tmp_path, n, edges, exits, queries)
    assert got == expected(n, edges, exits, queries)


def test_largest_graph_within_cpu_budget(tmp_path):
    rng = random.Random(77)
    n, edges = graphgen.grid_graph(rng, 12, 13, 0.04)
    exits = [0, n - 1]
    cops = [c for c in range(n) if c not in exits]
    queries = [(rng.choice(cops), rng.randrange(n), rng.choice("CR")) for _ in range(100)]
    got, cpu = run(tmp_path, n, edges, exits, queries)
    want = expected(n, edges, exits, queries)
    assert got == want
    assert cpu <= 60, f"{cpu:.1f} s of CPU time"
