import os
import shutil
import stat
import subprocess
import time

import pytest


@pytest.fixture()
def proj(tmp_path):
    d = tmp_path / "p"
    shutil.copytree("/app", d, ignore=shutil.ignore_patterns("*.o", "*.a", "greet", "greet.pc"))
    return d


def make(d, *a):
    return subprocess.run(["make", *a], cwd=d, capture_output=True, text=True, timeout=120)


def test_default_build(proj):
    r = make(proj)
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(proj / "greet")], capture_output=True, text=True).stdout == "hello\n"
    assert (proj / "libgreet.a").exists()
    r = make(proj)
    assert "cc" not in r.stdout and " ar " not in r.stdout, r.stdout


def test_user_flags_keep_include_path(proj):
    r = make(proj, "CFLAGS=-O0 -g", 'CPPFLAGS=-DLOUD -DGREETING=\\"hi\\"')
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(proj / "greet")], capture_output=True, text=True).stdout == "hi!!!\n"
    assert "-O0 -g" in r.stdout


def test_cc_variable_used(proj, tmp_path):
    wrapper = tmp_path / "mycc"
    log = tmp_path / "cc.log"
    wrapper.write_text(f"#!/bin/sh\necho \"$@\" >> {log}\nexec gcc \"$@\"\n")
    wrapper.chmod(0o755)
    r = make(proj, f"CC={wrapper}", "LDFLAGS=-Wl,--as-needed")
    assert r.returncode == 0, r.stderr
    calls = log.read_text()
    assert calls.count("-c") >= 2 and "--as-needed" in calls


def test_header_change_rebuilds(proj):
    assert make(proj).returncode == 0
    time.sleep(1.1)
    h = proj / "include/greet.h"
    h.write_text(h.read_text().replace("int greet_version(void);", "int greet_version(void);\n#define GREETING \"yo\""))
    r = make(proj)
    assert r.returncode == 0
    assert subprocess.run([str(proj / "greet")], capture_output=True, text=True).stdout == "yo\n"


def test_install_destdir_prefix(proj, tmp_path):
    stage = tmp_path / "stage"
    r = make(proj, "install", f"DESTDIR={stage}", "PREFIX=/opt/greet")
    assert r.returncode == 0, r.stderr
    root = stage / "opt/greet"
    for rel, mode in [("bin/greet", 0o755), ("lib/libgreet.a", 0o644), ("include/greet.h", 0o644),
                      ("lib/pkgconfig/greet.pc", 0o644)]:
        p = root / rel
        assert p.is_file(), rel
        assert stat.S_IMODE(p.stat().st_mode) == mode, rel
    pc = (root / "lib/pkgconfig/greet.pc").read_text()
    assert "prefix=/opt/greet\n" in pc and str(stage) not in pc and "@PREFIX@" not in pc
    assert not os.path.exists("/opt/greet")


def test_custom_dirs_and_uninstall(proj, tmp_path):
    stage = tmp_path / "s2"
    args = [f"DESTDIR={stage}", "PREFIX=/usr", "BINDIR=/usr/games", "LIBDIR=/usr/lib64"]
    assert make(proj, "install", *args).returncode == 0
    assert (stage / "usr/games/greet").is_file()
    assert (stage / "usr/lib64/pkgconfig/greet.pc").is_file()
    assert "prefix=/usr\n" in (stage / "usr/lib64/pkgconfig/greet.pc").read_text()
    (stage / "usr/games/other").write_text("keep")
    assert make(proj, "uninstall", *args).returncode == 0
    left = sorted(str(p.relative_to(stage)) for p in stage.rglob("*") if p.is_file())
    assert left == ["usr/games/other"]


def test_clean(proj):
    assert make(proj).returncode == 0
    assert make(proj, "clean").returncode == 0
    assert not any((proj / n).exists() for n in ("greet", "libgreet.a", "greet.o", "main.o"))
