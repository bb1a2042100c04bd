import random
import subprocess

import pytest

HARNESS = r'''
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "pool.h"
static _Alignas(16) unsigned char mem[1 << 20];
static unsigned char *ptr[4096]; static size_t len[4096];
static void fill(int id) { for (size_t k = 0; k < len[id]; k++) ptr[id][k] = (unsigned char)(id * 31 + k * 7); }
static int check(int id, size_t n) { for (size_t k = 0; k < n; k++) if (ptr[id][k] != (unsigned char)(id * 31 + k * 7)) return 0; return 1; }
int main(void) {
    char op[4]; int id; size_t n;
    while (scanf("%3s", op) == 1) {
        if (op[0] == 'I') { scanf("%zu", &n); pool_init(mem, n); memset(ptr, 0, sizeof ptr); printf("init\n"); }
        else if (op[0] == 'A') { scanf("%d %zu", &id, &n); unsigned char *p = pool_alloc(n);
            if (!p) { printf("-1\n"); continue; }
            if (((size_t)p & 7) || pool_capacity(p) < n) { printf("badblock\n"); continue; }
            ptr[id] = p; len[id] = n; fill(id); printf("%ld\n", (long)(p - mem)); }
        else if (op[0] == 'F') { scanf("%d", &id); pool_free(ptr[id]); ptr[id] = NULL; len[id] = 0; printf("freed\n"); }
        else if (op[0] == 'R') { scanf("%d %zu", &id, &n); unsigned char *p = pool_realloc(ptr[id], n);
            if (n == 0) { ptr[id] = NULL; len[id] = 0; printf("-1 freed\n"); continue; }
            if (!p) { printf("-1 %s\n", ptr[id] && check(id, len[id]) ? "kept" : "lost"); continue; }
            size_t keep = len[id] < n ? len[id] : n;
            ptr[id] = p; int ok = check(id, keep); len[id] = n; fill(id);
            printf("%ld %s\n", (long)(p - mem), ok ? "ok" : "corrupt"); }
        else if (op[0] == 'V') { int bad = 0; for (int i = 0; i < 4096; i++) if (ptr[i] && !check(i, len[i])) bad++; printf("bad=%d\n", bad); }
        else if (op[0] == 'S') { size_t a, b, c; pool_stats(&a, &b, &c); printf("%zu %zu %zu\n", a, b, c); }
    }
    return 0;
}
'''


class Model:
    def __init__(self, size):
        self.blocks = [[0, size, False]]

    def _merge(self):
        out = []
        for b in self.blocks:
            if out and not out[-1][2] and not b[2]:
                out[-1][1] += b[1]
            else:
                out.append(b)
        self.blocks = out

    def alloc(self, n):
        if n == 0:
            return None
        need = max(32, ((n + 7) & ~7) + 16)
        for i, b in enumerate(self.blocks):
            if not b[2] and b[1] >= need:
                if b[1] - need >= 32:
                    self.blocks[i:i + 1] = [[b[0], need, True], [b[0] + need, b[1] - need, False]]
                else:
                    b[2] = True
                return b[0] + 8
        return None

    def free(self, off):
        if off is None:
            return
        for b in self.blocks:
            if b[0] + 8 == off:
                b[2] = False
        self._merge()

    def cap(self, off):
        return next(b[1] - 16 for b in self.blocks if b[0] + 8 == off)

    def realloc(self, off, n):
        if off is None:
            return self.alloc(n)
        if n == 0:
            self.free(off)
            return None
        if self.cap(off) >= n:
            return off
        q = self.alloc(n)
        if q is None:
            return None
        self.free(off)
        return q

    def stats(self):
        fr = [b[1] - 16 for b in self.blocks if not b[2]]
        return f"{len(self.blocks)} {sum(fr)} {max(fr) if fr else 0}"


@pytest.fixture(scope="module")
def exe(tmp_path_factory):
    d = tmp_path_factory.mktemp("pool")
    (d / "h.c").write_text(HARNESS)
    r = subprocess.run(["gcc", "-O1", "-g", "-fsanitize=address,undefined", "-I/app", "-o", str(d / "h"),
                        str(d / "h.c"), "/app/pool.c"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(d / "h")


def session(exe, size, ops):
    m = Model(size)
    live = {}
    want = ["init"]
    for op in ops:
        if op[0] == "A":
            off = m.alloc(op[2])
            want.append(str(off if off is not None else -1))
            if off is not None:
                live[op[1]] = off
        elif op[0] == "F":
            m.free(live.pop(op[1], None))
            want.append("freed")
        elif op[0] == "R":
            old = live.get(op[1])
            q = m.realloc(old, op[2])
            if q is None:
                if op[2] == 0:
                    live.pop(op[1], None)
                    want.append("-1 freed")
                else:
                    want.append("-1 " + ("kept" if old is not None else "lost"))
            else:
                live[op[1]] = q
                want.append(f"{q} ok")
        elif op[0] == "V":
            want.append("bad=0")
        else:
            want.append(m.stats())
    text = f"I {size}\n" + "\n".join(" ".join(map(str, o)) for o in ops) + "\n"
    r = subprocess.run([exe], input=text, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    got = r.stdout.splitlines()
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"step {i}: {(['I'] + ops)[i]} got {g!r} want {w!r}"
    assert len(got) == len(want)


def test_rounding_up(exe):
    session(exe, 1024, [("A", 1, 20), ("A", 2, 5), ("A", 3, 17), ("S",), ("V",)])


def test_no_tiny_split(exe):
    session(exe, 96, [("A", 1, 40), ("S",), ("A", 2, 8), ("S",), ("V",)])
    session(exe, 104, [("A", 1, 64), ("S",), ("A", 2, 1), ("S",)])


def test_merge_both_sides(exe):
    ops = [("A", i, 24) for i in range(1, 6)] + [("F", 2), ("F", 4), ("S",), ("F", 3), ("S",), ("A", 9, 100), ("S",),
                                                   ("F", 1), ("F", 5), ("F", 9), ("S",)]
    session(exe, 4096, ops)


def test_demo_single_block():
    r = subprocess.run("gcc -o /tmp/pool_demo demo.c pool.c && /tmp/pool_demo", shell=True, cwd="/app",
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "hello allocator!!!! abcdef\nblocks=1 free=1008 largest=1008\n"


def test_realloc_semantics(exe):
    session(exe, 256, [("A", 1, 50), ("A", 2, 50), ("R", 1, 40), ("R", 1, 150), ("S",), ("R", 2, 60), ("V",),
                       ("R", 1, 0), ("S",), ("R", 3, 16), ("V",), ("S",)])


def test_realloc_failure_keeps_block(exe):
    session(exe, 512, [("A", 1, 100), ("A", 2, 100), ("R", 1, 400), ("V",), ("S",), ("F", 2), ("R", 1, 300),
                       ("V",), ("S",)])


def test_random_workload(exe):
    rng = random.Random(777)
    for size in (4096, 20000, 65536):
        ops, live = [], set()
        for _ in range(1500):
            k = rng.random()
            i = rng.randrange(200)
            n = rng.choice([rng.randint(1, 64), rng.randint(1, 600), rng.randint(0, 3)])
            if k < 0.4 and i not in live:
                ops.append(("A", i, n)); live.add(i)
            elif k < 0.7 and live:
                j = rng.choice(sorted(live)); ops.append(("F", j)); live.discard(j)
            elif k < 0.85 and live:
                j = rng.choice(sorted(live)); ops.append(("R", j, n))
                if n == 0:
                    live.discard(j)
            elif k < 0.93:
                ops.append(("S",))
            else:
                ops.append(("V",))
        for j in sorted(live):
            ops.append(("F", j))
        ops.append(("S",))
        session(exe, size, ops)
