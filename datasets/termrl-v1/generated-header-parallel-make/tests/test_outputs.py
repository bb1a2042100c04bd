import shutil
import subprocess
import time

import pytest


@pytest.fixture()
def proj(tmp_path):
    d = tmp_path / "p"
    shutil.copytree("/app", d, ignore=shutil.ignore_patterns("build", "gen"))
    return d


def make(d, *a):
    return subprocess.run(["make", *a], cwd=d, capture_output=True, text=True, timeout=120)


def opinfo(d, *a):
    return subprocess.run([str(d / "build/opinfo"), *a], capture_output=True, text=True).stdout


def edit(p, old, new):
    time.sleep(1.1)
    t = p.read_text()
    assert old in t
    p.write_text(t.replace(old, new))


def test_parallel_clean_builds(proj):
    for j in ("-j16", "-j8", "-j3", "-j16", "-j32"):
        assert make(proj, "clean").returncode == 0
        assert not (proj / "gen").exists() and not (proj / "build").exists()
        r = make(proj, j)
        assert r.returncode == 0, r.stderr
        assert opinfo(proj, "ADD").startswith("ADD -> 3 (0 operands) -> ADD\n")


def test_def_change_propagates(proj):
    assert make(proj, "-j4").returncode == 0
    edit(proj / "opcodes.def", "HALT     255   0", "HALT     254   0\nNOP      0     0")
    r = make(proj, "-j4")
    assert r.returncode == 0, r.stderr
    out = opinfo(proj, "HALT", "NOP")
    assert "HALT -> 254 (0 operands) -> HALT\n" in out
    assert "NOP -> 0 (0 operands) -> NOP\n" in out
    assert out.endswith("7 opcodes, HALT=254\n")


def test_generator_change_propagates(proj):
    assert make(proj).returncode == 0
    edit(proj / "tools/gen_opcodes.py", 'f\'    {{"{n}", {c}, {a}}},\\n\'', 'f\'    {{"{n.lower()}", {c}, {a}}},\\n\'')
    r = make(proj)
    assert r.returncode == 0, r.stderr
    assert opinfo(proj, "push").startswith("push -> 1 (1 operands) -> push\n")


def test_src_header_change(proj):
    assert make(proj).returncode == 0
    edit(proj / "src/disasm.h", "const char *disasm_name(int code);",
         "const char *disasm_name(int code);\n#define EXTRA_BANNER 1")
    r = make(proj)
    assert r.returncode == 0
    assert "main.c" in r.stdout and "disasm.c" in r.stdout


def test_noop(proj):
    assert make(proj, "-j4").returncode == 0
    r = make(proj)
    assert r.returncode == 0
    assert "gcc" not in r.stdout and "gen_opcodes" not in r.stdout, r.stdout
