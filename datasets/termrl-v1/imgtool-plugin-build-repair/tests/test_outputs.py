"""imgtool's build: run build.sh as shipped-and-fixed, then check the products by behaviour on random
images generated here, an installed-and-moved copy, and a filter plugin added here."""
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
SRC = Path("/app/imgtool")
OUT = SRC / "out"
ENV = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
FILTERS = ["invert", "brighten", "threshold", "blur"]


def sh(args, **kw):
    kw.setdefault("env", ENV)
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)


def build():
    r = sh(["sh", str(SRC / "build.sh")], cwd="/")
    assert r.returncode == 0, f"build.sh failed:\n{r.stdout}\n{r.stderr}"


@pytest.fixture(scope="module", autouse=True)
def built():
    shutil.rmtree(OUT, ignore_errors=True)
    shutil.rmtree(SRC / "build", ignore_errors=True)
    build()


def rand_image():
    w, h, m = RNG.randint(1, 9), RNG.randint(1, 9), RNG.choice([15, 255, 1000])
    return w, h, m, [[RNG.randint(0, m) for _ in range(w)] for _ in range(h)]


def pgm(img, comment=True):
    w, h, m, px = img
    head = f"P2\n# made by the tests\n{w} {h}\n{m}\n" if comment else f"P2 {w} {h} {m}\n"
    return head + "\n".join(" ".join(map(str, row)) for row in px) + "\n"


def parse(text):
    t = text.split()
    assert t[0] == "P2", text[:100]
    w, h, m = int(t[1]), int(t[2]), int(t[3])
    v = list(map(int, t[4:]))
    assert len(v) == w * h, text[:200]
    return w, h, m, [v[y * w:(y + 1) * w] for y in range(h)]


def apply(img, name, arg):
    w, h, m, px = img
    if name == "invert":
        f = lambda v: m - v
    elif name == "brighten":
        f = lambda v: min(max(v + arg, 0), m)
    elif name == "threshold":
        f = lambda v: m if v >= arg else 0
    elif name == "posterize":
        f = lambda v: (v // arg) * arg
    elif name == "blur":
        def at(x, y):
            return px[min(max(y, 0), h - 1)][min(max(x, 0), w - 1)]
        return w, h, m, [[(sum(at(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)) + 4) // 9
                          for x in range(w)] for y in range(h)]
    return w, h, m, [[f(v) for v in row] for row in px]


def run_chain(exe, chain, img, verbose=False):
    args = [str(exe)] + (["-v"] if verbose else []) + [f"{n}={a}" if a is not None else n for n, a in chain]
    r = sh(args, input=pgm(img, RNG.random() < 0.5))
    assert r.returncode == 0, f"{' '.join(args)} failed ({r.returncode}): {r.stderr}"
    exp = img
    for n, a in chain:
        exp = apply(exp, n, a)
    assert parse(r.stdout) == exp, f"{' '.join(args[1:])}: wrong image"
    return r


def rand_arg(name, m):
    return {"brighten": RNG.randint(-m // 2, m // 2), "threshold": RNG.randint(0, m), "posterize": RNG.randint(2, 9)}.get(name)


def test_library_products():
    d = sh(["readelf", "-d", str(OUT / "lib/libcore.so.1")]).stdout
    assert re.search(r"\(SONAME\).*\[libcore\.so\.1\]", d), d
    assert (OUT / "lib/libcore.so").resolve() == (OUT / "lib/libcore.so.1").resolve()
    members = sh(["ar", "t", str(OUT / "lib/libcore.a")]).stdout.split()
    assert len(members) >= 3, members
    need = sh(["readelf", "-d", str(OUT / "bin/imgtool")]).stdout
    assert "libcore.so.1" in need, "imgtool must link libcore dynamically"


def test_each_filter():
    for name in FILTERS:
        for _ in range(3):
            img = rand_image()
            run_chain(OUT / "bin/imgtool", [(name, rand_arg(name, img[2]))], img)


def test_filter_chains_and_plugin_logging():
    for _ in range(12):
        img = rand_image()
        chain = [(n, rand_arg(n, img[2])) for n in RNG.sample(FILTERS, RNG.randint(2, 4))]
        if RNG.random() < 0.5:
            chain = [("brighten", rand_arg("brighten", img[2])), ("threshold", rand_arg("threshold", img[2]))] + chain
        r = run_chain(OUT / "bin/imgtool", chain, img, verbose=True)
        logged = re.findall(r"^\[plugin\] (\w+) ready$", r.stderr, re.M)
        assert logged == [n for n, _ in chain], f"plugin log lines {logged} for {chain}: {r.stderr}"


def test_list():
    r = sh([str(OUT / "bin/imgtool"), "--list"])
    assert r.returncode == 0, r.stderr
    names = [line.split("\t")[0] for line in r.stdout.splitlines()]
    assert names == FILTERS, r.stdout


def test_imgstat_static_core():
    need = sh(["readelf", "-d", str(OUT / "bin/imgstat")]).stdout
    assert "libcore" not in need, "imgstat must not need libcore.so"
    for _ in range(5):
        img = rand_image()
        r = sh([str(OUT / "bin/imgstat")], input=pgm(img), cwd="/")
        assert r.returncode == 0, r.stderr
        v = [x for row in img[3] for x in row]
        mean = sum(v) / len(v)
        sd = (sum((x - mean) ** 2 for x in v) / len(v)) ** 0.5
        got = r.stdout.split()
        assert list(map(int, got[:4])) == [img[0], img[1], min(v), max(v)], r.stdout
        assert abs(float(got[4]) - mean) < 1e-3 and abs(float(got[5]) - sd) < 1e-3, r.stdout


def test_installed_tree_is_relocatable(tmp_path):
    prefix = tmp_path / "prefix"
    r = sh(["sh", str(SRC / "install.sh"), str(prefix)], cwd="/")
    assert r.returncode == 0, r.stderr
    moved = tmp_path / "elsewhere" / "imgtool-1"
    moved.parent.mkdir()
    prefix.rename(moved)
    hidden = SRC / "out.hidden-by-test"
    OUT.rename(hidden)
    try:
        for _ in range(3):
            img = rand_image()
            chain = [(n, rand_arg(n, img[2])) for n in RNG.sample(FILTERS, 3)]
            run_chain(moved / "bin/imgtool", chain, img)
        r = sh([str(moved / "bin/imgstat")], input=pgm(rand_image()))
        assert r.returncode == 0, r.stderr
    finally:
        hidden.rename(OUT)


PLUGIN = r"""
#include "core.h"
static int maxval;
int level(int v, int arg) { return core_clamp((v / arg) * arg, maxval); }
void plugin_init(void) { host_log("posterize ready"); }
int plugin_apply(struct image *img, int arg) {
    maxval = img->maxval;
    if (arg <= 0) return 1;
    for (int i = 0; i < img->w * img->h; i++) img->px[i] = level(img->px[i], arg);
    return 0;
}
"""


def test_new_filter_plugin_is_built_and_listed():
    name = "post" + "".join(RNG.choice("abcdefgh") for _ in range(4))
    src = SRC / "plugins" / f"{name}.c"
    defs = SRC / "filters.def"
    old_defs = defs.read_text()
    src.write_text(PLUGIN)
    defs.write_text(old_defs + f"{name}|{name}|posterize to multiples of ARG\n")
    try:
        build()
        r = sh([str(OUT / "bin/imgtool"), "--list"])
        assert [line.split("\t")[0] for line in r.stdout.splitlines()] == FILTERS + [name], r.stdout
        global apply
        base = apply

        def ext(img, n, a):
            return base(img, "posterize" if n == name else n, a)
        apply = ext
        try:
            for _ in range(4):
                img = rand_image()
                chain = [(name, RNG.randint(2, 9)), ("threshold", rand_arg("threshold", img[2])),
                         ("brighten", rand_arg("brighten", img[2])), (name, RNG.randint(2, 9))]
                RNG.shuffle(chain)
                run_chain(OUT / "bin/imgtool", chain, img, verbose=True)
        finally:
            apply = base
    finally:
        src.unlink()
        defs.write_text(old_defs)
