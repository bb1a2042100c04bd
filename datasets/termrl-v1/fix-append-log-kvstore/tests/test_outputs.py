import os
import random
import struct
import subprocess
import zlib

import pytest

HARNESS = r'''
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kvstore.h"
/* ops from stdin: P hexkey hexval | G hexkey | D hexkey | C (count) | K (compact) | R (close+reopen) */
static size_t unhex(const char *s, unsigned char *out) { size_t n = strlen(s) / 2; for (size_t i = 0; i < n; i++) { unsigned v; sscanf(s + 2 * i, "%2x", &v); out[i] = v; } return n; }
static char kb[4096], vb[2200000]; static unsigned char k[2048], v[1100000];
int main(int argc, char **argv) {
    kvstore *kv = kv_open(argv[1]);
    if (!kv) { printf("openfail\n"); return 1; }
    char op[4];
    while (scanf("%3s", op) == 1) {
        if (op[0] == 'P') { scanf("%s %s", kb, vb); size_t kl = unhex(kb, k), vl = strcmp(vb, "-") ? unhex(vb, v) : 0; printf("%d\n", kv_put(kv, k, kl, v, vl)); }
        else if (op[0] == 'G') { scanf("%s", kb); size_t kl = unhex(kb, k); void *val; size_t vl;
            if (kv_get(kv, k, kl, &val, &vl)) { printf("V "); for (size_t i = 0; i < vl; i++) printf("%02x", ((unsigned char *)val)[i]); printf("\n"); free(val); }
            else printf("none\n"); }
        else if (op[0] == 'D') { scanf("%s", kb); size_t kl = unhex(kb, k); printf("%d\n", kv_del(kv, k, kl)); }
        else if (op[0] == 'C') printf("%zu\n", kv_count(kv));
        else if (op[0] == 'K') printf("%d\n", kv_compact(kv));
        else if (op[0] == 'R') { kv_close(kv); kv = kv_open(argv[1]); printf("reopened\n"); }
    }
    kv_close(kv);
    return 0;
}
'''


def rec(t, key, val=b""):
    body = struct.pack("<IIB", len(key), len(val), t) + key + val
    return struct.pack("<I", zlib.crc32(body)) + body


def parse(data):
    out, off = [], 0
    while off + 13 <= len(data):
        crc, kl, vl, t = struct.unpack_from("<IIIB", data, off)
        body = data[off + 4:off + 13 + kl + vl]
        assert len(body) == 9 + kl + vl and zlib.crc32(body) == crc, off
        out.append((t, data[off + 13:off + 13 + kl], data[off + 13 + kl:off + 13 + kl + vl]))
        off += 13 + kl + vl
    assert off == len(data)
    return out


def state(records):
    d = {}
    for t, k, v in records:
        if t == 1:
            d[k] = v
        else:
            d.pop(k, None)
    return d


@pytest.fixture(scope="module")
def exe(tmp_path_factory):
    d = tmp_path_factory.mktemp("kv")
    (d / "h.c").write_text(HARNESS)
    r = subprocess.run(["gcc", "-O1", "-g", "-fsanitize=address,undefined", "-I/app", "-o", str(d / "h"),
                        str(d / "h.c"), "/app/kvstore.c"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(d / "h")


def session(exe, path, ops):
    text = "\n".join(" ".join(o) for o in ops) + "\n"
    r = subprocess.run([exe, str(path)], input=text, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, ASAN_OPTIONS="detect_leaks=1"))
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout.splitlines()


def H(b):
    return b.hex() if b else "-"


def test_file_format_written(exe, tmp_path):
    db = tmp_path / "db"
    out = session(exe, db, [("P", H(b"alpha"), H(b"one")), ("P", H(b"beta"), H(b"")), ("D", H(b"alpha")),
                            ("D", H(b"nothere")), ("C",)])
    assert out == ["0", "0", "1", "0", "1"]
    assert parse(db.read_bytes()) == [(1, b"alpha", b"one"), (1, b"beta", b""), (2, b"alpha", b"")]


def test_reads_foreign_file(exe, tmp_path):
    db = tmp_path / "db"
    db.write_bytes(rec(1, b"k1", b"v1") + rec(1, b"k2", b"\x00\xff") + rec(2, b"k1") + rec(1, b"k3", b"x" * 5000))
    out = session(exe, db, [("G", H(b"k1")), ("G", H(b"k2")), ("G", H(b"k3")), ("C",)])
    assert out == ["none", "V 00ff", "V " + (b"x" * 5000).hex(), "2"]


def test_torn_write_recovery(exe, tmp_path):
    rng = random.Random(3)
    good = rec(1, b"a", b"1") + rec(1, b"b", b"22") + rec(2, b"a") + rec(1, b"c", b"333")
    tail = rec(1, b"d", b"4444")
    for cut in [1, 5, 12, 13, 14, len(tail) - 1]:
        db = tmp_path / f"db{cut}"
        db.write_bytes(good + tail[:cut])
        out = session(exe, db, [("C",), ("P", H(b"e"), H(b"5")), ("R",), ("G", H(b"e")), ("G", H(b"d")), ("C",)])
        assert out == ["2", "0", "reopened", "V 35", "none", "3"], cut
        assert state(parse(db.read_bytes())) == {b"b": b"22", b"c": b"333", b"e": b"5"}
    bad = bytearray(good + tail)
    bad[len(good) + 15] ^= 0xFF   # corrupt last record's payload -> CRC mismatch
    db = tmp_path / "dbcrc"
    db.write_bytes(bytes(bad))
    assert session(exe, db, [("C",), ("G", H(b"d"))]) == ["2", "none"]
    assert db.read_bytes() == good


def test_compaction_then_more_writes(exe, tmp_path):
    db = tmp_path / "db"
    ops = [("P", H(b"k%d" % i), H(b"v%d" % i)) for i in range(50)]
    ops += [("D", H(b"k%d" % i)) for i in range(0, 50, 2)]
    ops += [("P", H(b"k1"), H(b"new")), ("K",), ("P", H(b"after"), H(b"compact")), ("D", H(b"k3")), ("C",), ("R",),
            ("G", H(b"after")), ("G", H(b"k1")), ("G", H(b"k3")), ("C",)]
    out = session(exe, db, ops)
    assert out[-5:] == ["reopened", "V " + b"compact".hex(), "V " + b"new".hex(), "none", "25"]
    recs = parse(db.read_bytes())
    st = state(recs)
    assert len(st) == 25 and st[b"after"] == b"compact" and b"k3" not in st
    assert not (tmp_path / "db.tmp").exists()


def test_compaction_file_contents(exe, tmp_path):
    db = tmp_path / "db"
    session(exe, db, [("P", H(b"x"), H(b"1")), ("P", H(b"x"), H(b"2")), ("P", H(b"y"), H(b"3")), ("D", H(b"y")), ("K",)])
    recs = parse(db.read_bytes())
    assert recs == [(1, b"x", b"2")]


def test_random_model(exe, tmp_path):
    rng = random.Random(77)
    db = tmp_path / "db"
    model = {}
    ops, want = [], []
    keys = [bytes(rng.randrange(256) for _ in range(rng.randint(1, 12))) for _ in range(30)]
    for _ in range(1500):
        k = rng.choice(keys)
        r = rng.random()
        if r < 0.4:
            v = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
            ops.append(("P", H(k), H(v))); want.append("0"); model[k] = v
        elif r < 0.6:
            ops.append(("D", H(k))); want.append("1" if k in model else "0"); model.pop(k, None)
        elif r < 0.9:
            ops.append(("G", H(k))); want.append("V " + model[k].hex() if k in model else "none")
        elif r < 0.95:
            ops.append(("R",)); want.append("reopened")
        elif r < 0.98:
            ops.append(("K",)); want.append("0")
        else:
            ops.append(("C",)); want.append(str(len(model)))
    got = session(exe, db, ops)
    assert [g.rstrip() for g in got] == [w.rstrip() for w in want]
    assert state(parse(db.read_bytes())) == model


def test_cli():
    r = subprocess.run("make -B kvcli >/dev/null && rm -f /tmp/kvcli.db && ./kvcli /tmp/kvcli.db put name ada && "
                       "./kvcli /tmp/kvcli.db get name && ./kvcli /tmp/kvcli.db del name; echo rc=$?; "
                       "./kvcli /tmp/kvcli.db count", shell=True, cwd="/app", capture_output=True, text=True)
    assert r.stdout == "ada\nrc=0\n0\n", r.stderr
