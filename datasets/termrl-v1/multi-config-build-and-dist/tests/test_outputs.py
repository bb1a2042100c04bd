import os
import shutil
import subprocess
import tarfile
import time

import pytest


@pytest.fixture()
def proj(tmp_path):
    d = tmp_path / "p"
    shutil.copytree("/app", d, ignore=shutil.ignore_patterns("build", "dist"))
    return d


def make(d, *a):
    return subprocess.run(["make", *a], cwd=d, capture_output=True, text=True, timeout=300)


def run(exe, *args, inp="1 2 3 4 5"):
    return subprocess.run([str(exe), *args], input=inp, capture_output=True, text=True, timeout=30)


def test_default_release(proj):
    r = make(proj)
    assert r.returncode == 0, r.stderr
    exe = proj / "build/release/rangesum"
    assert run(exe, "-v").stdout == "rangesum 2.4.1 (release)\n"
    assert run(exe, "1", "3").stdout == "5\n"
    assert run(exe, "3", "1").returncode == 0       # assertions compiled out
    assert list((proj / "build/release/obj").glob("*.o"))


def test_all_configs_side_by_side(proj):
    for cfg in ("debug", "asan", "release"):
        r = make(proj, f"BUILD={cfg}")
        assert r.returncode == 0, (cfg, r.stderr)
    for cfg in ("debug", "asan", "release"):
        exe = proj / f"build/{cfg}/rangesum"
        assert run(exe, "-v").stdout == f"rangesum 2.4.1 ({cfg})\n"
        assert run(exe).stdout == "15\n"
    assert run(proj / "build/debug/rangesum", "3", "1").returncode != 0       # assert fires
    assert run(proj / "build/asan/rangesum", "3", "1").returncode != 0
    syms = subprocess.run(["nm", str(proj / "build/asan/rangesum")], capture_output=True, text=True).stdout
    assert "__asan" in syms
    syms = subprocess.run(["nm", str(proj / "build/release/rangesum")], capture_output=True, text=True).stdout
    assert "__asan" not in syms
    objs = {cfg: sorted(p.name for p in (proj / f"build/{cfg}/obj").glob("*.o")) for cfg in ("debug", "asan", "release")}
    assert objs["debug"] == objs["release"] == objs["asan"] != []


def test_bad_config(proj):
    r = make(proj, "BUILD=profile")
    assert r.returncode != 0
    assert not (proj / "build/profile").exists()


def test_version_and_header_rebuild(proj):
    assert make(proj).returncode == 0
    time.sleep(1.1)
    (proj / "VERSION").write_text("2.5.0\n")
    assert make(proj).returncode == 0
    assert run(proj / "build/release/rangesum", "-v").stdout == "rangesum 2.5.0 (release)\n"
    r = make(proj)
    assert "cc" not in r.stdout.replace("make", "")
    time.sleep(1.1)
    h = proj / "include/rangesum.h"
    h.write_text(h.read_text().replace("#endif", "#define RS_EXTRA 1\n#endif"))
    r = make(proj)
    assert "rangesum.c" in r.stdout and "main.c" in r.stdout


def test_dist(proj, tmp_path):
    assert make(proj, "BUILD=debug").returncode == 0
    r = make(proj, "dist")
    assert r.returncode == 0, r.stderr
    tgz = proj / "dist/rangesum-2.4.1.tar.gz"
    assert tgz.is_file()
    with tarfile.open(tgz) as tf:
        names = tf.getnames()
    assert all(n == "rangesum-2.4.1" or n.startswith("rangesum-2.4.1/") for n in names)
    assert "rangesum-2.4.1/Makefile" in names and "rangesum-2.4.1/VERSION" in names
    assert "rangesum-2.4.1/src/main.c" in names and "rangesum-2.4.1/include/rangesum.h" in names
    assert not any("/build" in n or "/dist" in n or n.endswith(".o") for n in names)
    ex = tmp_path / "unpack"
    ex.mkdir()
    with tarfile.open(tgz) as tf:
        tf.extractall(ex)
    r = make(ex / "rangesum-2.4.1")
    assert r.returncode == 0, r.stderr
    assert run(ex / "rangesum-2.4.1/build/release/rangesum", "-v").stdout == "rangesum 2.4.1 (release)\n"


def test_clean(proj):
    assert make(proj).returncode == 0
    assert make(proj, "dist").returncode == 0
    assert make(proj, "clean").returncode == 0
    assert not (proj / "build").exists() and not (proj / "dist").exists()
