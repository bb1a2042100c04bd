import os
import random
import subprocess

import pytest

HARNESS = r'''
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ringbuf.h"
/* commands on stdin: N cap | W hexbytes | R n | D n | P off n | F byte | L maxlen | S */
static void hex(const unsigned char *b, size_t n) { for (size_t i = 0; i < n; i++) printf("%02x", b[i]); }
int main(void) {
    char cmd[8]; ringbuf *rb = NULL; static unsigned char tmp[1 << 16]; static char hexs[1 << 17];
    while (scanf("%7s", cmd) == 1) {
        if (!strcmp(cmd, "N")) { size_t c; scanf("%zu", &c); rb_free(rb); rb = rb_new(c); printf("%s\n", rb ? "ok" : "null"); }
        else if (!strcmp(cmd, "W")) { scanf("%s", hexs); size_t n = strlen(hexs) / 2;
            for (size_t i = 0; i < n; i++) { unsigned v; sscanf(hexs + 2 * i, "%2x", &v); tmp[i] = (unsigned char)v; }
            printf("%zu\n", rb_write(rb, tmp, n)); }
        else if (!strcmp(cmd, "R")) { size_t n; scanf("%zu", &n); size_t k = rb_read(rb, tmp, n); printf("%zu ", k); hex(tmp, k); printf("\n"); }
        else if (!strcmp(cmd, "D")) { size_t n; scanf("%zu", &n); printf("%zu\n", rb_read(rb, NULL, n)); }
        else if (!strcmp(cmd, "P")) { size_t o, n; scanf("%zu %zu", &o, &n); size_t k = rb_peek(rb, o, tmp, n); printf("%zu ", k); hex(tmp, k); printf("\n"); }
        else if (!strcmp(cmd, "F")) { unsigned b; scanf("%u", &b); printf("%ld\n", rb_find(rb, (unsigned char)b)); }
        else if (!strcmp(cmd, "L")) { size_t m; scanf("%zu", &m); char *d = malloc(m); long r = rb_readline(rb, d, m);
            printf("%ld", r); if (r >= 0) { printf(" "); hex((unsigned char *)d, strlen(d)); } printf("\n"); free(d); }
        else if (!strcmp(cmd, "S")) { printf("%zu %zu\n", rb_size(rb), rb_space(rb)); }
    }
    rb_free(rb);
    return 0;
}
'''


class Model:
    def __init__(self, cap):
        self.cap, self.d = cap, bytearray()

    def run(self, op):
        k = op[0]
        if k == "W":
            data = bytes.fromhex(op[1])
            n = min(len(data), self.cap - len(self.d))
            self.d += data[:n]
            return f"{n}"
        if k == "R":
            n = min(int(op[1]), len(self.d))
            out = bytes(self.d[:n]); del self.d[:n]
            return f"{n} {out.hex()}"
        if k == "D":
            n = min(int(op[1]), len(self.d)); del self.d[:n]
            return f"{n}"
        if k == "P":
            o, n = int(op[1]), int(op[2])
            chunk = bytes(self.d[o:o + n]) if o < len(self.d) else b""
            return f"{len(chunk)} {chunk.hex()}"
        if k == "F":
            return f"{self.d.find(bytes([int(op[1])]))}"
        if k == "L":
            m = int(op[1]); i = self.d.find(b"\n")
            if i < 0:
                return "-1"
            line = bytes(self.d[:i]); del self.d[:i + 1]
            return f"{i} {line[:m - 1].split(bytes(1))[0].hex()}"
        if k == "S":
            return f"{len(self.d)} {self.cap - len(self.d)}"


@pytest.fixture(scope="module")
def exe(tmp_path_factory):
    d = tmp_path_factory.mktemp("rb")
    (d / "h.c").write_text(HARNESS)
    r = subprocess.run(["gcc", "-std=c11", "-g", "-fsanitize=address,undefined", "-I/app", "-o", str(d / "h"),
                        str(d / "h.c"), "/app/ringbuf.c"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(d / "h")


def session(exe, cmds):
    text = "\n".join(" ".join(c) for c in cmds) + "\n"
    r = subprocess.run([exe], input=text, capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, ASAN_OPTIONS="detect_leaks=1"))
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout.splitlines()


def check(exe, cap, ops):
    m = Model(cap)
    out = session(exe, [("N", str(cap))] + ops)
    assert out[0] == "ok"
    want = [m.run(op) for op in ops]
    for got, exp, op in zip(out[1:], want, ops):
        assert got.rstrip() == exp.rstrip(), op
    assert len(out) - 1 == len(want)


def test_zero_capacity(exe):
    assert session(exe, [("N", "0")]) == ["null"]


def test_holds_exactly_capacity(exe):
    check(exe, 4, [("W", "0102030405"), ("S",), ("R", "2"), ("W", "aabbcc"), ("S",), ("R", "9"), ("S",)])
    check(exe, 1, [("W", "ff"), ("W", "ee"), ("S",), ("R", "1"), ("W", "ee"), ("R", "1")])


def test_wraparound_peek_find(exe):
    check(exe, 5, [("W", "0a0b0c0d"), ("D", "3"), ("W", "0e0f10"), ("P", "0", "9"), ("P", "2", "2"),
                   ("P", "4", "1"), ("P", "9", "1"), ("F", "15"), ("F", "16"), ("F", "99"), ("S",)])


def test_readline(exe):
    line = "hello\nworld\npartial".encode().hex()
    check(exe, 12, [("W", line), ("L", "100"), ("L", "3"), ("S",), ("L", "10"), ("W", "0a"), ("L", "1"), ("L", "8")])


def test_random_sessions(exe):
    rng = random.Random(99)
    for _ in range(30):
        cap = rng.randint(1, 40)
        ops = []
        for _ in range(rng.randint(20, 120)):
            k = rng.random()
            if k < 0.35:
                ops.append(("W", bytes(rng.choice([10, 65, 66, 67, 0, 255]) for _ in range(rng.randint(1, 15))).hex()))
            elif k < 0.5:
                ops.append(("R", str(rng.randint(0, 12))))
            elif k < 0.6:
                ops.append(("D", str(rng.randint(0, 12))))
            elif k < 0.72:
                ops.append(("P", str(rng.randint(0, 20)), str(rng.randint(0, 20))))
            elif k < 0.82:
                ops.append(("F", str(rng.choice([10, 65, 0, 255, 7]))))
            elif k < 0.92:
                ops.append(("L", str(rng.randint(1, 10))))
            else:
                ops.append(("S",))
        check(exe, cap, ops)


def test_large_transfer(exe):
    data = bytes(range(256)) * 40
    ops = []
    for i in range(0, len(data), 700):
        ops.append(("W", data[i:i + 700].hex()))
        ops.append(("R", "650"))
    check(exe, 1000, ops)
