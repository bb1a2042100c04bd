"""kvtools build: products, in-tree programs, staged + relocated install, and consumers built from kv.pc
(read the way pkg-config reads it), all on inputs generated here."""
import hashlib
import os
import random
import re
import shutil
import subprocess

import pytest

APP = "/app"
ENV = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "CPATH", "LIBRARY_PATH", "C_INCLUDE_PATH")}
RNG = random.Random(os.urandom(8))

SOURCES = {
    "include/kv/kv.h": "5bb9ea9f1318f317665d839fc4b3d752683f0fee5123abe5b8cdb836894f0bdc",
    "lib/core/kvc.h": "2053df4d287cd6e3413ea6fe1975777747c4d0f6a83d3dd5c59c65d49c973ab5",
    "lib/core/kvc_buf.c": "2698f3cbf159006fce57ac3e76d0109d1160bc4ebcd17023c780963004070a06",
    "lib/core/kvc_hash.c": "172b15e12475185883fb2cceb7341f79bd0f75f966e4d6cfe118813600e90200",
    "lib/kv/kv_parse.c": "88467f18be942a2d5714184c11935c1d84d94dd4aae852ed4cc1c62faeca4826",
    "lib/kv/kv_stats.c": "21a48623ead3a9e3c521fd5e3378506a2ebb6a2ce893b0638b5dc5c4bd0f1c95",
    "lib/kv/kv_store.c": "1b31438a4c4099e970124ca047f48200b01d345d3c0212329302432d74948148",
    "apps/kvdump.c": "b9c4a140fe019d435e6dbce1458e7e5822de210a614bce58e66ff2c95a3eba3a",
    "apps/kvq.c": "810924cc789707a81274061e9367c8bc80f65cdd02c8f556ab0e9d09b7dff9b3",
}


def sh(cmd, cwd=APP, env=None, **kw):
    return subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True, text=True, timeout=300,
                          env=env or ENV, **kw)


def gen_data(path):
    """key = value lines with keys up to 63 bytes, comments, blank lines and an overridden key"""
    items = {}
    lines = ["# generated"]
    for _ in range(RNG.randint(12, 30)):
        n = RNG.choice([RNG.randint(1, 8), RNG.randint(16, 40), RNG.randint(41, 63)])
        key = "".join(RNG.choice("abcdefghijklmnopqrstuvwxyz_.0123456789") for _ in range(n))
        val = RNG.choice([RNG.randint(-500, 500), round(RNG.uniform(-1000, 1000), RNG.randint(0, 4))])
        items[key] = float(val)
        indent, sep = RNG.choice(["", "  "]), RNG.choice(["=", " = ", "\t=  "])
        lines.append(f"{indent}{key}{sep}{val}")
        if RNG.random() < 0.2:
            lines.append(RNG.choice(["", "   ", "# note"]))
    key = RNG.choice(list(items))
    items[key] = 4242.0
    lines.append(f"{key} = 4242")
    path.write_text("\n".join(lines) + "\n")
    return items


def g6(v):
    return "%.6g" % v


def stats(items):
    vals = [items[k] for k in sorted(items)]
    n = len(vals)
    s = 0.0
    for v in vals:
        s += v
    m = s / n
    acc = 0.0
    for v in vals:
        acc += (v - m) * (v - m)
    return n, m, (acc / (n - 1)) ** 0.5


def dump_text(items):
    out = "".join(f"{k}\t{g6(items[k])}\n" for k in sorted(items))
    return out + f"# {len(items)} entries (libkv 2.1.0, keys < 64 bytes)\n"


def check_programs(bindir, tmp_path, env=None):
    data = tmp_path / f"data{RNG.randint(0, 10**6)}.kv"
    items = gen_data(data)
    keys = RNG.sample(sorted(items), 5) + ["no_such_key_" + "x" * RNG.randint(1, 40)]
    r = sh(f"{bindir}/kvq {data} {' '.join(keys)} --stats", cwd="/", env=env)
    assert r.returncode == 0, r.stderr
    n, m, sd = stats(items)
    want = "".join(f"{k}={g6(items[k])}\n" if k in items else f"{k}: missing\n" for k in keys)
    want += f"count {n}\nmean {m:.6f}\nstddev {sd:.6f}\n"
    assert r.stdout == want
    r = sh(f"{bindir}/kvdump {data}", cwd="/", env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == dump_text(items)


def readelf(path):
    r = sh(f"readelf -d {path}")
    assert r.returncode == 0, r.stderr
    return r.stdout


def read_pc(path, prefix_override=None):
    vars_, fields = {}, {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^([A-Za-z0-9_.]+)\s*:\s*(.*)$", line)
        if m:
            fields[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^([A-Za-z0-9_.]+)\s*=\s*(.*)$", line)
        if m:
            vars_[m.group(1)] = m.group(2)
    if prefix_override:
        vars_["prefix"] = prefix_override

    def expand(s, depth=0):
        assert depth < 20, "recursive variables in kv.pc"
        return re.sub(r"\$\{([A-Za-z0-9_.]+)\}", lambda mm: expand(vars_[mm.group(1)], depth + 1), s)
    return {k: expand(v) for k, v in vars_.items()}, {k: expand(v) for k, v in fields.items()}


CONSUMER = r'''
#include <stdio.h>
#include <kv/kv.h>
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "r");
    kv_store *s = kv_open();
    int r = kv_load(s, f);
    fclose(f);
    size_t n;
    const kv_entry *e = kv_entries(s, &n);
    printf("loaded %d\n", r);
    for (size_t i = 0; i < n; i++) printf("[%s] %.3f\n", e[i].key, e[i].value);
    double v = 0;
    int got = kv_get(s, argv[2], &v);
    printf("probe %d %.2f %s %.4f\n", got, v, kv_version(), kv_stddev(s));
    kv_close(s);
    return 0;
}
'''


def consumer_expected(items, nlines, probe):
    out = f"loaded {nlines}\n" + "".join(f"[{k}] {items[k]:.3f}\n" for k in sorted(items))
    return out + f"probe 1 {items[probe]:.2f} 2.1.0 {stats(items)[2]:.4f}\n"


@pytest.fixture(scope="module")
def built():
    r = sh("make clean && make -j4")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return True


def test_sources_unchanged():
    for rel, digest in SOURCES.items():
        assert hashlib.sha256(open(os.path.join(APP, rel), "rb").read()).hexdigest() == digest, f"{rel} was changed"


def test_build_products(built):
    b = "/app/build"
    d = readelf(f"{b}/lib/libkv.so.2.1.0")
    assert "Library soname: [libkv.so.2]" in d
    assert os.readlink(f"{b}/lib/libkv.so.2") == "libkv.so.2.1.0"
    assert os.readlink(f"{b}/lib/libkv.so") == "libkv.so.2"
    nm = sh(f"nm -g --defined-only {b}/lib/libkv.a").stdout
    for sym in ("kv_open", "kv_load", "kv_stddev", "kvc_hash", "kvc_grow"):
        assert re.search(rf" T {sym}$", nm, re.M), f"{sym} not defined in libkv.a"
    nm = sh(f"nm -D --defined-only {b}/lib/libkv.so.2.1.0").stdout
    assert re.search(r" T kv_entries$", nm, re.M) and re.search(r" T kvc_hash$", nm, re.M)
    assert "main" not in re.findall(r" T (\w+)$", nm, re.M)
    d = readelf(f"{b}/bin/kvq")
    assert "Shared library: [libkv.so.2]" in d
    assert "libkv" not in readelf(f"{b}/bin/kvdump")


def test_programs_in_tree(built, tmp_path):
    check_programs("/app/build/bin", tmp_path)
    r = sh("/app/build/bin/kvq --version", cwd="/")
    assert r.stdout == "kvq (libkv 2.1.0)\n"


def test_staged_install_is_relocatable(built, tmp_path):
    prefix = f"/opt/kvtools-{RNG.randint(1000, 9999)}"
    stage = tmp_path / "stage"
    r = sh(f"make install DESTDIR={stage} PREFIX={prefix}")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert not os.path.exists(prefix), "DESTDIR was ignored"
    root = stage / prefix.lstrip("/")
    for rel in ("bin/kvq", "bin/kvdump", "lib/libkv.so.2.1.0", "lib/libkv.a", "include/kv/kv.h",
                "lib/pkgconfig/kv.pc"):
        assert (root / rel).is_file(), rel
    assert os.readlink(root / "lib/libkv.so.2") == "libkv.so.2.1.0"
    assert os.readlink(root / "lib/libkv.so") == "libkv.so.2"
    vars_, fields = read_pc(root / "lib/pkgconfig/kv.pc")
    assert vars_.get("prefix") == prefix, "kv.pc must describe the library installed at PREFIX"
    assert fields.get("Version") == "2.1.0"
    moved = tmp_path / "elsewhere" / "kv"
    moved.parent.mkdir()
    shutil.move(str(root), str(moved))
    assert sh("make clean").returncode == 0
    try:
        check_programs(moved / "bin", tmp_path)
    finally:
        sh("make -j4")


def install_to(tmp_path):
    prefix = tmp_path / "p"
    r = sh(f"make install PREFIX={prefix}")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    vars_, fields = read_pc(prefix / "lib/pkgconfig/kv.pc")
    assert vars_.get("prefix") == str(prefix)
    return prefix, fields


def consumer_case(tmp_path):
    data = tmp_path / "c.kv"
    items = gen_data(data)
    nlines = sum(1 for ln in data.read_text().splitlines() if ln.strip() and not ln.strip().startswith("#"))
    probe = max(items, key=len)
    (tmp_path / "prog.c").write_text(CONSUMER)
    return data, items, nlines, probe


def test_pc_dynamic_consumer(built, tmp_path):
    prefix, fields = install_to(tmp_path)
    data, items, nlines, probe = consumer_case(tmp_path)
    r = sh(f"gcc -O1 -o prog prog.c {fields.get('Cflags', '')} {fields.get('Libs', '')}", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Shared library: [libkv.so.2]" in readelf(tmp_path / "prog")
    r = sh(f"./prog {data} {probe}", cwd=tmp_path, env=dict(ENV, LD_LIBRARY_PATH=str(prefix / "lib")))
    assert r.returncode == 0, r.stderr
    assert r.stdout == consumer_expected(items, nlines, probe)


def test_pc_static_consumer(built, tmp_path):
    prefix, fields = install_to(tmp_path)
    data, items, nlines, probe = consumer_case(tmp_path)
    libs = fields.get("Libs", "").split()
    assert "-lkv" in libs, "kv.pc Libs must link -lkv"
    libs = [str(prefix / "lib/libkv.a") if w == "-lkv" else w for w in libs]
    cmd = f"gcc -O1 -o sprog prog.c {fields.get('Cflags', '')} {' '.join(libs)} {fields.get('Libs.private', '')}"
    r = sh(cmd, cwd=tmp_path)
    assert r.returncode == 0, cmd + "\n" + r.stderr
    assert "libkv" not in readelf(tmp_path / "sprog")
    r = sh(f"./sprog {data} {probe}", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == consumer_expected(items, nlines, probe)


def test_clean_then_plain_make(built):
    assert sh("make clean").returncode == 0
    assert not os.path.exists("/app/build")
    r = sh("make")
    assert r.returncode == 0, r.stderr[-2000:]
    assert os.path.isfile("/app/build/bin/kvq") and os.path.isfile("/app/build/bin/kvdump")
