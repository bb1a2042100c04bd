import os
import subprocess

import pytest


def sh(cmd, cwd="/app"):
    return subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def built():
    r = sh("make clean && make && make check")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return r


def test_app_output(built):
    r = sh("./build/app name=1.4.0 x=3.0.0")
    assert r.returncode == 0
    assert r.stdout == "NAME 1.4.0 supported\nX 3.0.0 unsupported\nlog events: 0\n"
    r = sh("./build/app bad v=1.x")
    assert r.stdout == "?  unsupported\nV 1.x unsupported\nlog events: 3\n"
    assert r.stderr == "log: no '='\nlog: bad version\nlog: bad version\n"


def test_check_passes(built):
    assert "PASS" in built.stdout
    r = sh("./build/test_parse")
    assert r.returncode == 0 and r.stdout.strip() == "PASS"


def test_archives(built):
    for lib, obj in [("libutil.a", "util.o"), ("libparse.a", "parse.o"), ("liblog.a", "log.o")]:
        r = sh(f"ar t build/{lib}")
        assert r.stdout.split() == [obj], lib
        idx = sh(f"nm -s build/{lib}").stdout
        assert "Archive index:" in idx, lib


def test_static_linking(built):
    d = sh("readelf -d build/app").stdout
    assert "libutil" not in d and "libparse" not in d and "liblog" not in d
    syms = sh("nm build/app").stdout
    assert " T parse_version" in syms and " T log_msg" in syms


def test_external_program_links(built, tmp_path):
    prog = tmp_path / "prog.c"
    prog.write_text(r'''
#include <stdio.h>
#include <stdlib.h>
#include "log.h"
#include "parse.h"
#include "util.h"
extern int log_level;
int main(void) {
    version_t v;
    log_set_level(5);
    int bad = parse_version("x", &v);
    char *n = parse_name("k=v");
    printf("%d %s %d %d %d\n", bad, n, util_is_supported("1.9.0"), log_count(), log_level);
    free(n);
    return 0;
}
''')
    r = sh(f"gcc {prog} -Iinclude -Lbuild -Wl,--start-group -lparse -lutil -llog -Wl,--end-group -o {tmp_path}/prog")
    assert r.returncode == 0, r.stderr
    r = subprocess.run([f"{tmp_path}/prog"], capture_output=True, text=True)
    assert r.stdout == "-1 K 1 1 5\n"
    assert r.stderr == "log: bad version\n"


def test_log_level_independent(built, tmp_path):
    # util's own verbosity must not be the log module's variable
    syms = sh("nm build/libutil.a").stdout
    assert not any(l.split()[-1] == "log_level" and l.split()[-2] in ("U", "D", "B", "C")
                   for l in syms.splitlines() if l.strip() and len(l.split()) >= 2)
