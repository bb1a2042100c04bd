import os
import random
import subprocess

import pytest

HARNESS = r'''
#include <stdio.h>
#include <string.h>
#include "hashmap.h"
int main(void) {
    hashmap *m = hm_new(); char op[4], key[128]; long v;
    while (scanf("%3s", op) == 1) {
        if (op[0] == 'P') { scanf("%127s %ld", key, &v); hm_put(m, key, v); }
        else if (op[0] == 'G') { scanf("%127s", key); long o = -1; int f = hm_get(m, key, &o); printf("G %d %ld\n", f, f ? o : -1); }
        else if (op[0] == 'D') { scanf("%127s", key); printf("D %d\n", hm_del(m, key)); }
        else if (op[0] == 'L') { printf("L %zu\n", hm_len(m)); }
    }
    hm_free(m);
    return 0;
}
'''


@pytest.fixture(scope="module")
def exe(tmp_path_factory):
    d = tmp_path_factory.mktemp("hm")
    (d / "h.c").write_text(HARNESS)
    r = subprocess.run(["gcc", "-g", "-O1", "-fsanitize=address,undefined", "-I/app", "-o", str(d / "h"),
                        str(d / "h.c"), "/app/hashmap.c"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(d / "h")


def run_ops(exe, ops):
    model, want = {}, []
    for op in ops:
        if op[0] == "P":
            model[op[1]] = op[2]
        elif op[0] == "G":
            want.append(f"G 1 {model[op[1]]}" if op[1] in model else "G 0 -1")
        elif op[0] == "D":
            want.append(f"D {1 if model.pop(op[1], None) is not None else 0}")
        else:
            want.append(f"L {len(model)}")
    text = "\n".join(" ".join(map(str, o)) for o in ops) + "\n"
    r = subprocess.run([exe], input=text, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, ASAN_OPTIONS="detect_leaks=1"))
    assert r.returncode == 0, r.stderr[-3000:]
    got = r.stdout.splitlines()
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"output #{i}: got {g!r}, want {w!r}"


def test_basic(exe):
    run_ops(exe, [("P", "a", 1), ("P", "b", 2), ("G", "a"), ("G", "b"), ("G", "c"), ("P", "a", 5), ("G", "a"), ("L",)])


def test_growth_keeps_all_keys(exe):
    ops = [("P", f"key{i}", i) for i in range(3000)]
    ops += [("G", f"key{i}") for i in range(0, 3000, 7)] + [("L",)]
    run_ops(exe, ops)


def test_delete_then_lookup_colliding(exe):
    ops = [("P", f"k{i}", i) for i in range(5)]
    ops += [("D", "k1"), ("D", "k3"), ("D", "k1")] + [("G", f"k{i}") for i in range(5)] + [("L",)]
    ops += [("P", "k4", 44), ("G", "k4"), ("L",), ("D", "k4"), ("G", "k4"), ("L",)]
    run_ops(exe, ops)


def test_no_duplicates_after_tombstones(exe):
    rng = random.Random(1)
    ops = []
    keys = [f"w{i}" for i in range(6)]
    for _ in range(4000):
        k = rng.choice(keys)
        r = rng.random()
        ops.append(("P", k, rng.randint(0, 99)) if r < 0.5 else ("D", k) if r < 0.8 else ("G", k))
        if rng.random() < 0.1:
            ops.append(("L",))
    run_ops(exe, ops)


def test_random_workload(exe):
    rng = random.Random(424242)
    for _ in range(5):
        ops = []
        keys = [f"item-{rng.randint(0, 10**6)}" for _ in range(rng.randint(50, 800))]
        for _ in range(6000):
            k = rng.choice(keys)
            r = rng.random()
            ops.append(("P", k, rng.randint(-10**9, 10**9)) if r < 0.45 else ("D", k) if r < 0.7 else
                       ("G", k) if r < 0.97 else ("L",))
        run_ops(exe, ops)


def test_wordcount_tool():
    r = subprocess.run("make -B wordcount >/dev/null && printf 'a b a c -a a b -zz' | ./wordcount a b c zz",
                       shell=True, cwd="/app", capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "3 1 2 1 0\n"
