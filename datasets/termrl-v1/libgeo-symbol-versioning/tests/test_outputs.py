"""libgeo 2.0 built with soname libgeo.so.1: 1.x binaries (shipped ones and ones compiled here against
a 1.x library built here) keep the 1.x behaviour; programs compiled against the 2.0 header get 2.0;
only the public API is exported. Inputs are random, generated here."""
import math
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
DIST = Path("/app/dist")
LIB = DIST / "lib"
HERE = Path(__file__).parent
V1_NAMES = {0: "circle", 1: "rect", 2: "square"}
V2_NAMES = {0: "circle", 1: "ellipse", 2: "rect", 3: "square"}
PUBLIC_V1 = ["geo_area", "geo_perimeter", "geo_scale", "geo_contains", "geo_kind_name"]
PUBLIC_V2 = PUBLIC_V1 + ["geo_make_ellipse"]


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=isinstance(cmd, str), capture_output=True, text=True, timeout=120, **kw)


@pytest.fixture(scope="module", autouse=True)
def rebuilt():
    shutil.rmtree(DIST, ignore_errors=True)
    r = sh(["/app/libgeo-2/build.sh"], cwd="/")
    assert r.returncode == 0, f"build.sh failed: {r.stdout}\n{r.stderr}"
    assert (LIB / "libgeo.so.1").exists(), "build.sh did not produce /app/dist/lib/libgeo.so.1"


def close(a, b):
    return abs(a - b) <= 2e-6 * max(1.0, abs(b))


def compare(out: str, expected: list, what: str):
    lines = out.strip().splitlines()
    assert len(lines) == len(expected), f"{what}: {len(lines)} lines, expected {len(expected)}\n{out[:500]}"
    for i, (line, exp) in enumerate(zip(lines, expected)):
        got = line.split()
        assert len(got) == len(exp), f"{what} line {i}: {line!r} vs expected {exp}"
        for g, e in zip(got, exp):
            ok = g == e if isinstance(e, str) else (int(g) == e if isinstance(e, int) else close(float(g), e))
            assert ok, f"{what} line {i}: got {line!r}, expected {exp}"


# ---------- 1.x semantics ----------
def v1_area(k, a, b):
    return float({0: math.pi * a * a, 1: a * b, 2: a * a}[k])


def v1_perim(k, a, b):
    return float({0: 2 * math.pi * a, 1: 2 * (a + b), 2: 4 * a}[k])


def v1_contains(k, x, y, a, b, px, py):
    dx, dy = px - x, py - y
    if k == 0:
        return int(dx * dx + dy * dy <= a * a)
    if k == 1:
        return int(abs(dx) * 2 <= a and abs(dy) * 2 <= b)
    return int(abs(dx) * 2 <= a and abs(dy) * 2 <= a)


def v1_case():
    k = RNG.randrange(3)
    x, y = RNG.randint(-20, 20), RNG.randint(-20, 20)
    a, b = 2 * RNG.randint(1, 8), 2 * RNG.randint(1, 8)
    if k == 0:
        # boundary points of a circle on a 3-4-5 triangle, or just inside/outside
        r = 5 * RNG.randint(1, 3)
        a = r
        px, py = x + RNG.choice([3, -3, 4, -4, 0]) * r // 5, y + RNG.choice([4, -4, 3, -3]) * r // 5
        px += RNG.choice([0, 0, 1, -1])
    else:
        side_b = a if k == 2 else b
        px = x + RNG.choice([a // 2, -a // 2, a // 2 + 1, a // 2 - 1, 0])
        py = y + RNG.choice([side_b // 2, -side_b // 2, side_b // 2 + 1, 0])
    f = RNG.choice([0.5, 1.5, 2.0, 3.0, 0.25])
    return k, x, y, a, b, f, px, py


def test_shipped_legacy_shapecalc_keeps_1x_behaviour():
    cases = [v1_case() for _ in range(60)]
    inp, exp = "", []
    for k, x, y, a, b, f, px, py in cases:
        inp += f"{V1_NAMES[k]} {x} {y} {a} {b} {f} {px} {py}\n"
        a2, b2 = float(a * f), float(b * f if k == 1 else b)
        exp.append([V1_NAMES[k], v1_area(k, a, b), v1_perim(k, a, b), v1_contains(k, x, y, a, b, px, py),
                    v1_area(k, a2, b2), v1_perim(k, a2, b2), a2, b2, k, float(x)])
    r = sh(["/app/legacy/bin/shapecalc"], input=inp)
    assert r.returncode == 0, f"shapecalc failed against the new library: {r.stderr}"
    compare(r.stdout, exp, "legacy shapecalc")


def test_shipped_legacy_kinds_keeps_1x_numbers():
    r = sh(["/app/legacy/bin/kinds"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:4] == ["0 circle", "1 rect", "2 square", "3 unknown"], r.stdout


V1_PROG = r"""
#include <stdio.h>
#include <string.h>
#include "geo.h"
int main(void) {
    int k; double x, y, a, b, f, px, py;
    while (scanf("%d %lf %lf %lf %lf %lf %lf %lf", &k, &x, &y, &a, &b, &f, &px, &py) == 8) {
        struct geo_shape arr[3] = {{2, 7.0, 8.0, 9.0, 10.0}, {k, x, y, a, b}, {1, 11.0, 12.0, 13.0, 14.0}};
        int in = geo_contains(&arr[1], px, py);
        double ar = geo_area(&arr[1]), pe = geo_perimeter(&arr[1]);
        geo_scale(&arr[1], f);
        printf("%s %d %.6f %.6f %.6f %.6f %.6f %.6f %d %.6f %.6f %.6f %.6f %d %.6f %.6f %.6f %.6f\n",
               geo_kind_name(arr[1].kind), in, ar, pe, arr[1].a, arr[1].b, arr[1].x, arr[1].y,
               arr[0].kind, arr[0].x, arr[0].y, arr[0].a, arr[0].b, arr[2].kind, arr[2].x, arr[2].y, arr[2].a, arr[2].b);
    }
    return 0;
}
"""


def test_new_1x_program_runs_against_the_2_0_library(tmp_path):
    """A program compiled and linked here against a genuine 1.x libgeo.so.1 (GEO_1.0), then run
    against /app/dist/lib instead; the neighbouring array elements must not be touched."""
    v1 = tmp_path / "v1"
    shutil.copytree(HERE / "v1", v1)
    r = sh("gcc -O2 -fPIC -c geo.c -o geo.o && gcc -shared -Wl,-soname,libgeo.so.1 -Wl,--version-script=geo.map "
           "-o libgeo.so.1 geo.o -lm && ln -s libgeo.so.1 libgeo.so", cwd=v1)
    assert r.returncode == 0, r.stderr
    (tmp_path / "p.c").write_text(V1_PROG)
    r = sh(f"gcc -O1 -I{v1} p.c -o p -L{v1} -lgeo", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    shutil.rmtree(v1)
    cases = [v1_case() for _ in range(60)]
    inp, exp = "", []
    for k, x, y, a, b, f, px, py in cases:
        inp += f"{k} {x} {y} {a} {b} {f} {px} {py}\n"
        a2, b2 = float(a * f), float(b * f if k == 1 else b)
        exp.append([V1_NAMES[k], v1_contains(k, x, y, a, b, px, py), v1_area(k, a, b), v1_perim(k, a, b), a2, b2,
                    float(x), float(y), 2, 7.0, 8.0, 9.0, 10.0, 1, 11.0, 12.0, 13.0, 14.0])
    r = sh([str(tmp_path / "p")], input=inp, env={**os.environ, "LD_LIBRARY_PATH": str(LIB)})
    assert r.returncode == 0, f"1.x program failed against the new library: {r.stderr}"
    compare(r.stdout, exp, "1.x program")


# ---------- 2.0 semantics ----------
V2_PROG = r"""
#include <stdio.h>
#include "geo.h"
int main(void) {
    int k; double x, y, a, b, ang, fx, fy, px, py;
    while (scanf("%d %lf %lf %lf %lf %lf %lf %lf %lf %lf", &k, &x, &y, &a, &b, &ang, &fx, &fy, &px, &py) == 10) {
        struct geo_shape s;
        if (k == 99) s = geo_make_ellipse(x, y, a, b, ang);
        else { struct geo_shape t = {k, 0u, x, y, a, b, ang}; s = t; }
        printf("%s %.6f %.6f %d", geo_kind_name(s.kind), geo_area(&s), geo_perimeter(&s), geo_contains(&s, px, py));
        geo_scale(&s, fx, fy);
        printf(" %s %.6f %.6f %.6f %.6f %u\n", geo_kind_name(s.kind), geo_area(&s), geo_perimeter(&s), s.a, s.b, s.flags);
    }
    return 0;
}
"""


def v2_area(k, a, b):
    return float({0: math.pi * a * a, 1: math.pi * a * b, 2: a * b, 3: a * a}[k])


def v2_perim(k, a, b):
    if k == 1:
        return math.pi * (3 * (a + b) - math.sqrt((3 * a + b) * (a + 3 * b)))
    return float({0: 2 * math.pi * a, 2: 2 * (a + b), 3: 4 * a}[k])


def v2_local(x, y, ang, px, py):
    dx, dy = px - x, py - y
    c, s = math.cos(ang), math.sin(ang)
    return dx * c + dy * s, -dx * s + dy * c


def v2_inside_margin(k, a, b, lx, ly):
    """(inside?, distance-ish margin from the boundary)"""
    if k == 0:
        v = lx * lx + ly * ly - a * a
    elif k == 1:
        v = (lx * lx) / (a * a) + (ly * ly) / (b * b) - 1
    else:
        bb = a if k == 3 else b
        v = max(abs(lx) * 2 - a, abs(ly) * 2 - bb)
    return int(v < 0), abs(v)


def v2_scale(k, a, b, fx, fy):
    if k in (0, 3):
        if fx == fy:
            return k, a * fx, b
        return (1 if k == 0 else 2), a * fx, a * fy
    return k, a * fx, b * fy


def test_new_program_gets_2_0(tmp_path):
    (tmp_path / "q.c").write_text(V2_PROG)
    r = sh(f"gcc -O1 -I{DIST}/include q.c -o q -L{LIB} -lgeo -Wl,-rpath,{LIB}", cwd=tmp_path)
    assert r.returncode == 0, f"compiling against /app/dist failed: {r.stderr}"
    refs = sh(["objdump", "-T", str(tmp_path / "q")]).stdout
    for name in ("geo_area", "geo_scale", "geo_contains", "geo_kind_name"):
        assert re.search(r"\(GEO_2\.0\)\s+" + name + r"\b", refs), f"{name} is not bound to GEO_2.0:\n{refs}"
    inp, exp = "", []
    while len(exp) < 80:
        k = RNG.choice([0, 1, 2, 3, 99])
        kk = 1 if k == 99 else k
        x, y = RNG.randint(-20, 20), RNG.randint(-20, 20)
        a, b = 2 * RNG.randint(1, 8), 2 * RNG.randint(1, 8)
        if kk == 0:
            b = a if RNG.random() < 0.5 else b
        ang = RNG.choice([0.0, 0.0, 0.5, 1.2, -0.7, math.pi / 6])
        if ang == 0.0 and kk in (2, 3):
            px = x + RNG.choice([a // 2, -a // 2, a // 2 - 1, 0])
            py = y + RNG.choice([(a if kk == 3 else b) // 2, 0, 1])
        else:
            px, py = x + RNG.uniform(-9, 9), y + RNG.uniform(-9, 9)
        inside, margin = v2_inside_margin(kk, a, b, *v2_local(x, y, ang, px, py))
        if ang != 0.0 and margin < 1e-3:
            continue
        fx = RNG.choice([0.5, 2.0, 3.0])
        fy = fx if RNG.random() < 0.4 else RNG.choice([0.5, 2.0, 3.0, 1.5])
        k2, a2, b2 = v2_scale(kk, a, b, fx, fy)
        inp += f"{k} {x} {y} {a} {b} {ang!r} {fx} {fy} {px!r} {py!r}\n"
        exp.append([V2_NAMES[kk], v2_area(kk, a, b), v2_perim(kk, a, b), inside,
                    V2_NAMES[k2], v2_area(k2, a2, b2), v2_perim(k2, a2, b2), float(a2), float(b2), 1 if k == 99 else 0])
    r = sh([str(tmp_path / "q")], input=inp)
    assert r.returncode == 0, r.stderr
    compare(r.stdout, exp, "2.0 program")


def dynsyms():
    out = sh(["readelf", "--dyn-syms", "-W", str(LIB / "libgeo.so.1")]).stdout
    syms = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == "FUNC" and f[6] != "UND" and f[4] in ("GLOBAL", "WEAK"):
            syms.add(f[7])
    return syms


def test_soname_and_dev_symlink():
    d = sh(["readelf", "-d", str(LIB / "libgeo.so.1")]).stdout
    assert re.search(r"\(SONAME\).*\[libgeo\.so\.1\]", d), d
    assert (LIB / "libgeo.so").resolve() == (LIB / "libgeo.so.1").resolve()
    hdr = (DIST / "include" / "geo.h").read_text()
    assert "GEO_ELLIPSE" in hdr and "geo_make_ellipse" in hdr, "dist/include/geo.h is not the 2.0 header"


def test_exports_exactly_the_public_api_with_versions():
    expected = {f"{n}@GEO_1.0" for n in PUBLIC_V1} | {f"{n}@@GEO_2.0" for n in PUBLIC_V2}
    got = dynsyms()
    assert got == expected, f"missing: {sorted(expected - got)}; unexpected: {sorted(got - expected)}"
