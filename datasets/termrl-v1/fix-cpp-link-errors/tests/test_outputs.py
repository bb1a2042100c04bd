import glob
import itertools
import os
import shutil
import subprocess

import pytest

EXPECTED_2 = ("shapes: 3\ncircle 12.566371\nsquare 4.000000\ntriangle 1.732051\nmean 6.099474\ncrc 0x{crc}\n")


def crc8(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def expected(size):
    import math
    areas = {"circle": math.pi * size * size, "square": size * size, "triangle": math.sqrt(3) / 4 * size * size}
    lines = ["shapes: 3"] + [f"{k} {areas[k]:.6f}" for k in sorted(areas)]
    lines.append(f"mean {sum(areas.values()) / 3:.6f}")
    lines.append(f"crc 0x{crc8(b'circlesquaretriangle'):02x}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def built():
    r = subprocess.run("make clean && make", shell=True, cwd="/app", capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]


def test_make_builds_and_runs(built):
    r = subprocess.run(["/app/bin/shapes"], capture_output=True, text=True)
    assert r.returncode == 0
    assert r.stdout == expected(2.0)


def test_size_argument(built):
    r = subprocess.run(["/app/bin/shapes", "3.5"], capture_output=True, text=True)
    assert r.stdout == expected(3.5)


def test_c_file_still_c():
    assert os.path.exists("/app/legacy/crc8.c")
    r = subprocess.run(["gcc", "-std=c99", "-Wall", "-Werror", "-c", "/app/legacy/crc8.c", "-o", "/tmp/crc8_check.o"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    syms = subprocess.run(["nm", "/tmp/crc8_check.o"], capture_output=True, text=True).stdout
    assert " T crc8" in syms


def test_any_link_order(tmp_path):
    objs = []
    for src in sorted(glob.glob("/app/src/*.cpp")):
        o = tmp_path / (os.path.basename(src) + ".o")
        r = subprocess.run(["g++", "-std=c++17", "-O2", "-I/app/src", "-I/app/legacy", "-c", src, "-o", str(o)],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        objs.append(str(o))
    co = tmp_path / "crc8.o"
    assert subprocess.run(["gcc", "-O2", "-I/app/legacy", "-c", "/app/legacy/crc8.c", "-o", str(co)]).returncode == 0
    objs.append(str(co))
    orders = [objs, list(reversed(objs))]
    rng_orders = list(itertools.permutations(objs))
    orders += [rng_orders[i] for i in range(0, len(rng_orders), max(1, len(rng_orders) // 10))]
    for i, order in enumerate(orders):
        exe = tmp_path / f"shapes{i}"
        r = subprocess.run(["g++", "-o", str(exe), *order], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        out = subprocess.run([str(exe)], capture_output=True, text=True).stdout
        assert out == expected(2.0), (order, out)


def test_mean_is_template():
    hdr = open("/app/src/stats.hpp").read()
    assert "template" in hdr and "mean" in hdr


def test_clean(built):
    r = subprocess.run("make clean", shell=True, cwd="/app", capture_output=True, text=True)
    assert r.returncode == 0
    assert not os.path.exists("/app/bin/shapes")
    r = subprocess.run("make", shell=True, cwd="/app", capture_output=True, text=True, timeout=300)
    assert r.returncode == 0
