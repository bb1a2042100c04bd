import os
import shutil
import subprocess
import time

import pytest


@pytest.fixture()
def proj(tmp_path):
    d = tmp_path / "p"
    shutil.copytree("/app", d, ignore=shutil.ignore_patterns("build"))
    r = make(d)
    assert r.returncode == 0, r.stderr
    return d


def make(d, *args):
    return subprocess.run(["make", *args], cwd=d, capture_output=True, text=True, timeout=120)


def run(d):
    return subprocess.run([str(d / "build/greeter"), "bob"], capture_output=True, text=True).stdout


def bump(p, old, new):
    time.sleep(1.1)
    p.write_text(p.read_text().replace(old, new))


def test_initial_build(proj):
    assert run(proj) == "hello, bob!\nhello, bob!\ntotal 12\n"


def test_noop_rebuild_runs_nothing(proj):
    r = make(proj)
    assert r.returncode == 0
    assert "gcc" not in r.stdout and "cc " not in r.stdout, r.stdout


def test_config_header_change_rebuilds(proj):
    bump(proj / "include/config.h", '#define REPEAT 2', '#define REPEAT 3')
    bump(proj / "include/config.h", '"hello"', '"hey"')
    r = make(proj)
    assert r.returncode == 0, r.stderr
    assert run(proj) == "hey, bob!\n" * 3 + "total 12\n"


def test_only_dependents_rebuilt(proj):
    bump(proj / "include/legacy.h", '"!"', '"?"')
    r = make(proj)
    assert r.returncode == 0, r.stderr
    assert "greet.c" in r.stdout and "main.c" not in r.stdout, r.stdout
    assert run(proj).startswith("hello, bob?\n")


def test_removed_header(proj):
    time.sleep(1.1)
    src = proj / "src/greet.c"
    src.write_text(src.read_text().replace('#include "legacy.h"\n', '#define LEGACY_SUFFIX "."\n'))
    os.remove(proj / "include/legacy.h")
    r = make(proj)
    assert r.returncode == 0, r.stderr
    assert run(proj).startswith("hello, bob.\n")


def test_parallel_clean_build(proj):
    assert make(proj, "clean").returncode == 0
    assert not (proj / "build").exists()
    r = make(proj, "-j4")
    assert r.returncode == 0, r.stderr
    assert run(proj).endswith("total 12\n")
