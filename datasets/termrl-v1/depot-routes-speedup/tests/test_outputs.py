"""/app/routes/routes.py must write a byte-identical OUT.txt to the original program (a copy lives in
/tests) on networks and queries generated here, agree with a brute-force search on tiny networks, and
meet a CPU-time bar on a 12,100-junction network with 8,000 queries.

Small cases are compared with the original itself; the large one with the tests' fast reference
(ref_fast.py), which is checked against the original here first."""
import os
import random
import resource
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

PROGRAM = os.environ.get("ROUTES", "/app/routes/routes.py")
ORIGINAL = os.path.join(HERE, "orig_routes.py")
REFERENCE = os.path.join(HERE, "ref_fast.py")
RNG_SEED = 4711
RNG = random.Random(RNG_SEED)
CPU_BAR = 5.0        # seconds of CPU for the large case (the reference ~1.2 s; the original ~3 min)
CPU_KILL = 15        # RLIMIT_CPU for the program under test: a hang guard that load cannot trip
CPU_KILL_OURS = 120  # RLIMIT_CPU for the original and the reference


def _limit(seconds):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
    return set_limit


def run(program, args, ok=True):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, program, *map(str, args)], capture_output=True, text=True, timeout=1800,
                       preexec_fn=_limit(CPU_KILL if program == PROGRAM else CPU_KILL_OURS))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if ok:
        assert r.returncode == 0, f"{program} exited {r.returncode} (CPU limit {CPU_KILL} s): {r.stderr[-2000:]}"
    return r, cpu


def files(tmp_path, tag, network, queries):
    net, qs = tmp_path / f"{tag}-net.txt", tmp_path / f"{tag}-q.txt"
    net.write_text(network)
    qs.write_text(queries)
    return net, qs


def against(other, tmp_path, tag, network, queries):
    net, qs = files(tmp_path, tag, network, queries)
    got, want = tmp_path / f"{tag}-got.txt", tmp_path / f"{tag}-want.txt"
    _, cpu = run(PROGRAM, [net, qs, got])
    run(other, [net, qs, want])
    g, w = got.read_text(), want.read_text()
    if g != w:
        gl, wl = g.splitlines(), w.splitlines()
        k = next((i for i, (a, b) in enumerate(zip(gl, wl)) if a != b), min(len(gl), len(wl)))
        pytest.fail(f"{tag}: output differs first at line {k + 1}: got {gl[k:k + 1]}, expected {wl[k:k + 1]} "
                    f"({len(gl)} lines vs {len(wl)})")
    return w, cpu


def test_random_networks(tmp_path):
    for k, (w, h, depots) in enumerate([(8, 9, None), (13, 11, 4), (16, 14, 12)]):
        network, nodes = gen.network(RNG, w, h)
        out, _ = against(ORIGINAL, tmp_path, f"r{k}", network, gen.queries(RNG, nodes, 250, depots))
        assert out.count("\n") == 251


def test_ties_everywhere(tmp_path):
    w = h = 9
    ids = RNG.sample(range(1, 200), w * h)
    name = {(x, y): f"c{ids[x * h + y]}" for x in range(w) for y in range(h)}
    lines = [f"{name[x, y]} {name[x + dx, y + dy]} 1 both" for x in range(w) for y in range(h)
             for dx, dy in ((1, 0), (0, 1)) if (x + dx, y + dy) in name]
    RNG.shuffle(lines)
    corners = [name[0, 0], name[w - 1, 0], name[0, h - 1], name[w - 1, h - 1]]
    qs = [f"{a} {b}" for a in corners for b in corners] + [f"{RNG.choice(list(name.values()))} {RNG.choice(corners)}"
                                                            for _ in range(80)]
    out, _ = against(ORIGINAL, tmp_path, "ties", "\n".join(lines) + "\n", "\n".join(qs) + "\n")
    assert f"{name[0, 0]} {name[w - 1, h - 1]} {w + h - 2} " in out


def test_one_way_repeated_and_looping_segments(tmp_path):
    network = ("a b 5\nb a 1\na b 3\na b 4 both\nb c 2\nc c 1\nc a 1\nc d 7\nd e 1 both\ne b 1\n"
               "b9 b10 1\nb10 d 1\nb b9 1\nb b10 2\n# one-way out of x\nx a 1\n")
    queries = "a d\nd a\nx e\ne x\nb d\nc b\nd d\nq q\nq a\na q\n"
    out, _ = against(ORIGINAL, tmp_path, "oneway", network, queries)
    assert "q q 0 q\n" in out and "e x unreachable\n" in out and out.endswith("unreachable 3\n")


def test_empty_query_file(tmp_path):
    network, _ = gen.network(RNG, 4, 4)
    out, _ = against(ORIGINAL, tmp_path, "noq", network, "# no queries today\n\n")
    assert out == "total 0 routes 0 unreachable 0\n"


def _brute(edges, s, t):
    roads = {}
    for a, b, c in edges:
        roads.setdefault(a, []).append((b, c))
    best = None

    def dfs(v, path, cost):
        nonlocal best
        if v == t:
            if best is None or (cost, path) < best:
                best = (cost, path)
            return
        for u, c in roads.get(v, ()):
            if u not in path:
                dfs(u, path + (u,), cost + c)

    dfs(s, (s,), 0)
    return best


def test_tiny_networks_against_exhaustive_search(tmp_path):
    pool = ["a", "b", "b1", "b10", "b2", "B", "ab", "a1", "z"]
    for k in range(12):
        names = RNG.sample(pool, RNG.randint(3, 7))
        edges = []
        for _ in range(RNG.randint(4, 16)):
            a, b = RNG.sample(names, 2)
            edges.append((a, b, RNG.randint(1, 3)))
        queries = [(a, b) for a in names for b in names]
        net, qs = files(tmp_path, f"tiny{k}", "".join(f"{a} {b} {c}\n" for a, b, c in edges),
                        "".join(f"{a} {b}\n" for a, b in queries))
        run(PROGRAM, [net, qs, tmp_path / f"tiny{k}.out"])
        got = (tmp_path / f"tiny{k}.out").read_text().splitlines()
        for (a, b), line in zip(queries, got):
            best = _brute(edges, a, b)
            want = f"{a} {b} unreachable" if best is None else f"{a} {b} {best[0]} {','.join(best[1])}"
            assert line == want, f"network {edges}: got {line!r}, expected {want!r}"


def test_rejects_bad_lines(tmp_path):
    good_net, good_q = "a b 1\n", "a b\n"
    cases = [("a b 1\nb c 0\n", good_q, "net", 2), ("a b 1\n\nb c x\n", good_q, "net", 3),
             ("a b 2.5\n", good_q, "net", 1), ("a b 1 oneway\n", good_q, "net", 1), ("a b\n", good_q, "net", 1),
             (good_net, "a b\na b c\n", "q", 2), (good_net, "# x\na\n", "q", 2)]
    for k, (network, queries, which, line) in enumerate(cases):
        net, qs = files(tmp_path, f"bad{k}", network, queries)
        r, _ = run(PROGRAM, [net, qs, tmp_path / f"bad{k}.out"], ok=False)
        bad = net if which == "net" else qs
        assert r.returncode == 1 and f"{bad}:{line}:" in r.stderr, \
            f"{which} file {[network, queries][which == 'q']!r} must be rejected with exit status 1 and a message " \
            f"naming {bad}:{line}: got {r.returncode}, {r.stderr!r}"


def test_reference_agrees_with_the_original(tmp_path):
    network, nodes = gen.network(RNG, 20, 20)
    net, qs = files(tmp_path, "self", network, gen.queries(RNG, nodes, 300, 6))
    a, b = tmp_path / "self-orig.txt", tmp_path / "self-ref.txt"
    run(ORIGINAL, [net, qs, a])
    run(REFERENCE, [net, qs, b])
    assert a.read_text() == b.read_text()


def test_large_network_within_the_cpu_bar(tmp_path):
    rng = random.Random(RNG_SEED + 1)
    network, nodes = gen.network(rng, 110, 110, messy=False)
    out, cpu = against(REFERENCE, tmp_path, "big", network, gen.queries(rng, nodes, 8000, 40, extra=False))
    assert out.count("\n") == 8001
    print(f"CPU time for 12,100 junctions and 8,000 queries: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"the large case took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
