import os
import random
import subprocess

import pytest

HARNESS = r'''
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strutil.h"
int main(int argc, char **argv) {
    if (!strcmp(argv[1], "trim")) {
        char *t = su_trim(argv[2]); printf("<%s>", t); free(t);
    } else if (!strcmp(argv[1], "split")) {
        size_t n; char **f = su_split(argv[3], argv[2][0], &n);
        printf("%zu", n);
        for (size_t i = 0; i < n; i++) printf("<%s>", f[i]);
        su_free_list(f, n);
    } else if (!strcmp(argv[1], "join")) {
        char *j = su_join(argv + 3, (size_t)(argc - 3), argv[2]); printf("<%s>", j); free(j);
    } else if (!strcmp(argv[1], "roundtrip")) {
        size_t n; char **f = su_split(argv[3], argv[2][0], &n);
        char *j = su_join(f, n, argv[2]); printf("<%s>", j); free(j); su_free_list(f, n);
    }
    return 0;
}
'''


@pytest.fixture(scope="module")
def exe(tmp_path_factory):
    d = tmp_path_factory.mktemp("h")
    (d / "h.c").write_text(HARNESS)
    out = d / "h"
    r = subprocess.run(["gcc", "-g", "-O0", "-fsanitize=address,undefined", "-fno-omit-frame-pointer",
                        "-I/app", "-o", str(out), str(d / "h.c"), "/app/strutil.c"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(out)


def call(exe, *args):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99")
    r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=20, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def test_trim_basic(exe):
    assert call(exe, "trim", "  hi there \t\n") == "<hi there>"
    assert call(exe, "trim", "x") == "<x>"
    assert call(exe, "trim", "abcdefgh") == "<abcdefgh>"


def test_trim_degenerate(exe):
    assert call(exe, "trim", "") == "<>"
    assert call(exe, "trim", "     ") == "<>"
    assert call(exe, "trim", "\t") == "<>"


def test_split_keeps_empty_fields(exe):
    assert call(exe, "split", ",", "a,,b") == "3<a><><b>"
    assert call(exe, "split", ",", "a,b,c") == "3<a><b><c>"
    assert call(exe, "split", ",", "") == "1<>"
    assert call(exe, "split", ",", ",,") == "3<><><>"
    assert call(exe, "split", ":", "trailing:") == "2<trailing><>"


def test_join(exe):
    assert call(exe, "join", ", ", "a", "b", "c") == "<a, b, c>"
    assert call(exe, "join", "--", "only") == "<only>"
    assert call(exe, "join", "+") == "<>"


def test_random_against_python(exe):
    rng = random.Random(9)
    alphabet = "ab ;\t"
    for _ in range(60):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 15)))
        assert call(exe, "trim", s) == "<" + s.strip() + ">"
        parts = s.split(";")
        assert call(exe, "split", ";", s) == f"{len(parts)}" + "".join(f"<{p}>" for p in parts)
        assert call(exe, "roundtrip", ";", s) == f"<{s}>"
