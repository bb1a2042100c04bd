import hashlib
import os
import shutil
import subprocess
import time

import pytest

SHA = "968171882c97d4a4e052194ebebdc7d8daf0c973d2e5959346b359dc8cbfa389"


@pytest.fixture()
def proj(tmp_path):
    d = tmp_path / "p"
    shutil.copytree("/app", d, ignore=shutil.ignore_patterns("build"))
    return d


def make(d, *a):
    return subprocess.run(["make", *a], cwd=d, capture_output=True, text=True, timeout=300)


def stat_run(d, data):
    return subprocess.run([str(d / "build/bin/jsonstat")], input=data, capture_output=True, text=True, timeout=30)


def test_tarball_untouched():
    assert hashlib.sha256(open("/app/vendor/tinyjson-0.9.tar.gz", "rb").read()).hexdigest() == SHA
    assert any(p.endswith(".patch") for p in os.listdir("/app/patches"))


def test_clean_build_and_behaviour(proj):
    r = make(proj)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert (proj / "build/deps/lib/libtinyjson.a").is_file()
    assert (proj / "build/deps/include/tj.h").is_file()
    r = stat_run(proj, '{"a":[1,2.5,"x",true,null]}')
    assert r.stdout == "objects=1 arrays=1 strings=1 numbers=2 literals=2\n"
    r = stat_run(proj, '[{"k": {"n": [false, -1e5, "s\\"q"]}}, [], {}]')
    assert r.stdout == "objects=3 arrays=3 strings=1 numbers=1 literals=1\n"
    assert stat_run(proj, "[1, 2").returncode == 1
    d = subprocess.run(["readelf", "-d", str(proj / "build/bin/jsonstat")], capture_output=True, text=True).stdout
    assert "tinyjson" not in d
    assert " T tj_count" in subprocess.run(["nm", str(proj / "build/bin/jsonstat")], capture_output=True, text=True).stdout


def test_noop_second_make(proj):
    assert make(proj).returncode == 0
    before = {p: os.stat(proj / p).st_mtime_ns for p in ["build/deps/lib/libtinyjson.a", "build/bin/jsonstat"]}
    time.sleep(1.1)
    r = make(proj)
    assert r.returncode == 0
    assert "tar " not in r.stdout and "configure" not in r.stdout and "gcc" not in r.stdout, r.stdout
    assert before == {p: os.stat(proj / p).st_mtime_ns for p in before}


def test_patch_change_rebuilds(proj):
    assert make(proj).returncode == 0
    time.sleep(1.1)
    patches = sorted((proj / "patches").glob("*.patch"))
    extra = proj / "patches" / "zz-extra.patch"
    extra.write_text(
        "--- a/src/tj.h\n+++ b/src/tj.h\n@@ -1,2 +1,3 @@\n #ifndef TJ_H\n #define TJ_H\n+#define TJ_PATCHED 1\n")
    r = make(proj)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "TJ_PATCHED" in (proj / "build/deps/include/tj.h").read_text()
    assert patches


def test_clean(proj):
    assert make(proj).returncode == 0
    assert make(proj, "clean").returncode == 0
    assert not (proj / "build").exists()
    assert make(proj).returncode == 0
