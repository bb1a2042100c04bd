import heapq
import random
import subprocess

import pytest


def run(path, *args):
    return subprocess.run(["python3", "/app/deps.py", str(path), *args], capture_output=True, text=True, timeout=30)


def ref_order(deps):
    indeg = {n: len(d) for n, d in deps.items()}
    users = {n: [] for n in deps}
    for n, ds in deps.items():
        for d in ds:
            users[d].append(n)
    h = [n for n in deps if indeg[n] == 0]
    heapq.heapify(h)
    out = []
    while h:
        n = heapq.heappop(h)
        out.append(n)
        for u in users[n]:
            indeg[u] -= 1
            if not indeg[u]:
                heapq.heappush(h, u)
    return out


def reach(start, edges):
    seen, st = set(), [start]
    while st:
        for m in edges[st.pop()]:
            if m not in seen:
                seen.add(m)
                st.append(m)
    return seen


def test_example_order():
    r = run("/app/example.deps", "order")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["assets", "config", "docs", "libutil", "libnet", "app", "tests"]


def test_example_needs_affected():
    assert run("/app/example.deps", "needs", "app").stdout.split() == ["assets", "config", "libutil", "libnet"]
    assert run("/app/example.deps", "affected", "libutil").stdout.split() == ["libnet", "app", "tests"]
    assert run("/app/example.deps", "needs", "libutil").stdout == ""
    r = run("/app/example.deps", "needs", "nothere")
    assert r.returncode == 4 and r.stdout == ""


def write_graph(tmp_path, deps, rng):
    lines = []
    for n, ds in deps.items():
        ds = list(ds)
        rng.shuffle(ds)
        first = True
        while ds or first:
            first = False
            k = rng.randint(0, len(ds))
            part, ds = ds[:k], ds[k:]
            sep = rng.choice([":", " :", ":  ", "\t:\t"])
            lines.append(f"{n}{sep}{' '.join(part)}" + rng.choice(["", "  # note", "#x"]))
            if not ds:
                break
        if rng.random() < 0.2:
            lines.append("   # comment line")
            lines.append("")
    rng.shuffle(lines)
    p = tmp_path / f"g{rng.randint(0, 10**9)}.deps"
    p.write_text("\n".join(lines) + "\n")
    return p


def random_dag(rng, n):
    names = rng.sample(["a", "b", "c", "Z", "A", "lib_x", "lib-y", "m1", "m10", "m2", "n", "x.o", "y.o",
                        "main", "util", "zz", "_p", "Q9"], n)
    deps = {}
    for i, name in enumerate(names):
        deps[name] = set(rng.sample(names[:i], rng.randint(0, min(i, 4))))
    return deps


def test_random_graphs(tmp_path):
    rng = random.Random(31337)
    for _ in range(40):
        deps = random_dag(rng, rng.randint(2, 18))
        p = write_graph(tmp_path, deps, rng)
        order = ref_order(deps)
        r = run(p, "order")
        assert r.returncode == 0, (p.read_text(), r.stderr)
        assert r.stdout.split() == order, p.read_text()
        node = rng.choice(list(deps))
        rev = {n: [m for m in deps if n in deps[m]] for n in deps}
        assert run(p, "needs", node).stdout.split() == [n for n in order if n in reach(node, deps)]
        assert run(p, "affected", node).stdout.split() == [n for n in order if n in reach(node, rev)]


def test_cycles(tmp_path):
    for text in ["a: b\nb: c\nc: a\n", "x: x\n", "a: b\nb: a\nc:\n"]:
        p = tmp_path / "c.deps"
        p.write_text(text)
        for args in (["order"], ["needs", "a" if "a" in text else "x"]):
            r = run(p, *args)
            assert r.returncode == 3, (text, args)
            assert r.stdout == ""
            assert "cycle" in r.stderr.lower()


def test_errors(tmp_path):
    p = tmp_path / "bad.deps"
    p.write_text("a: b\njust words here\n")
    assert run(p, "order").returncode == 2
    assert run(tmp_path / "missing.deps", "order").returncode == 2
    assert run("/app/example.deps", "frobnicate").returncode == 2
    assert run("/app/example.deps", "needs").returncode == 2
    assert run("/app/example.deps", "order").returncode == 0
