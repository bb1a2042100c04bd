import os
import shutil
import subprocess

import pytest

APP = "/app"
ENV = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}


def sh(cmd, cwd=APP, **kw):
    return subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True, text=True, timeout=120, env=ENV, **kw)


@pytest.fixture(scope="module")
def built():
    r = sh("make clean && make")
    assert r.returncode == 0, r.stdout + r.stderr
    return True


def test_soname_and_links(built):
    r = sh("readelf -d build/libtally.so.1.2.0")
    assert r.returncode == 0, r.stderr
    assert "Library soname: [libtally.so.1]" in r.stdout
    assert os.readlink("/app/build/libtally.so.1") == "libtally.so.1.2.0"
    assert os.readlink("/app/build/libtally.so") == "libtally.so.1"
    assert "tally_add" in sh("nm build/libtally.a").stdout


def test_tool_dynamic_and_runs_in_place(built):
    d = sh("readelf -d build/tallyctl").stdout
    assert "Shared library: [libtally.so.1]" in d
    r = sh("echo 'a b a c a' | build/tallyctl a c z")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "libtally 1.2.0\ndistinct 3\na 3\nc 1\nz 0\n"


def test_install_relocatable(built, tmp_path):
    pre = tmp_path / "inst"
    r = sh(f"make install PREFIX={pre}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert os.readlink(pre / "lib/libtally.so.1") == "libtally.so.1.2.0"
    assert os.readlink(pre / "lib/libtally.so") == "libtally.so.1"
    assert (pre / "lib/libtally.a").is_file() and (pre / "include/tally.h").is_file()
    moved = tmp_path / "elsewhere" / "root"
    moved.parent.mkdir()
    shutil.move(str(pre), str(moved))
    assert sh("make clean").returncode == 0
    r = sh(f"echo 'x y x' | {moved}/bin/tallyctl x", cwd="/")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "libtally 1.2.0\ndistinct 2\nx 2\n"
    sh("make")


def test_link_external_program(built, tmp_path):
    pre = tmp_path / "p2"
    assert sh(f"make install PREFIX={pre}").returncode == 0
    src = tmp_path / "prog.c"
    src.write_text('#include <stdio.h>\n#include "tally.h"\nint main(void){tally*t=tally_new();'
                   'tally_add(t,"q");tally_add(t,"q");printf("%d %s\\n",tally_get(t,"q"),tally_version());'
                   'tally_free(t);return 0;}\n')
    r = sh(f"gcc {src} -I{pre}/include -L{pre}/lib -ltally -o {tmp_path}/prog")
    assert r.returncode == 0, r.stderr
    assert "NEEDED" in sh(f"readelf -d {tmp_path}/prog").stdout
    r = subprocess.run([str(tmp_path / "prog")], capture_output=True, text=True,
                       env=dict(ENV, LD_LIBRARY_PATH=f"{pre}/lib"))
    assert r.stdout == "2 1.2.0\n"


def test_clean(built):
    assert sh("make clean").returncode == 0
    assert not os.path.exists("/app/build")
    assert sh("make").returncode == 0
