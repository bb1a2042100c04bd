import os
import shutil
import subprocess
import time

import pytest

MB = "/app/minibuild.py"


def mb(d, *args, cwd=None):
    # the wall-clock timeout only guards against a hang; no test bounds elapsed time
    return subprocess.run(["python3", MB, *args], cwd=cwd or d, capture_output=True, text=True, timeout=300)


def ran(d):
    p = d / "log"
    if not p.exists():
        return []
    out = p.read_text().split()
    p.unlink()
    return out


CHAIN = """
# chain with a fan-in
build b.txt: a.txt
    echo B >> log; tr a-z A-Z < a.txt > b.txt
build c.txt: b.txt
    echo C >> log; sed 's/X//g' b.txt > c.txt
build d.txt: other.txt
    echo D >> log; cat other.txt other.txt > d.txt
build all.txt: c.txt d.txt
    echo ALL >> log; cat c.txt d.txt > all.txt
"""


@pytest.fixture()
def chain(tmp_path):
    (tmp_path / "BUILD").write_text(CHAIN)
    (tmp_path / "a.txt").write_text("hello\n")
    (tmp_path / "other.txt").write_text("o\n")
    return tmp_path


def test_example_project(tmp_path):
    d = tmp_path / "ex"
    shutil.copytree("/app/example", d, ignore=shutil.ignore_patterns(".minibuild", "*.o", "app", "gen.h"))
    r = mb(d)
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(d / "app")], capture_output=True, text=True).stdout == "84\n"
    r = mb(d)
    assert r.returncode == 0 and r.stdout.strip() == ""


def test_full_then_noop(chain):
    r = mb(chain)
    assert r.returncode == 0, r.stderr
    assert sorted(ran(chain)) == ["ALL", "B", "C", "D"]
    assert (chain / "all.txt").read_text() == "HELLO\no\no\n"
    assert len([l for l in r.stdout.splitlines() if l.strip()]) == 4
    os.utime(chain / "a.txt", (time.time() + 100, time.time() + 100))
    r = mb(chain)
    assert r.returncode == 0 and ran(chain) == [] and r.stdout.strip() == ""


def test_content_change_and_early_cutoff(chain):
    assert mb(chain).returncode == 0
    ran(chain)
    (chain / "other.txt").write_text("p\n")
    assert mb(chain).returncode == 0
    assert sorted(ran(chain)) == ["ALL", "D"]
    (chain / "a.txt").write_text("heXllo\n")        # b changes, c comes out identical
    assert mb(chain).returncode == 0
    assert sorted(ran(chain)) == ["B", "C"]
    assert (chain / "all.txt").read_text() == "HELLO\np\np\n"


def test_command_change_and_output_tamper(chain):
    assert mb(chain).returncode == 0
    ran(chain)
    (chain / "BUILD").write_text(CHAIN.replace("cat other.txt other.txt > d.txt", "cat other.txt > d.txt"))
    assert mb(chain).returncode == 0
    assert sorted(ran(chain)) == ["ALL", "D"]
    (chain / "b.txt").write_text("tampered\n")
    assert mb(chain).returncode == 0
    assert ran(chain) == ["B"]
    os.remove(chain / "c.txt")
    assert mb(chain).returncode == 0
    assert ran(chain) == ["C"]


def test_targets_and_f_option(chain, tmp_path):
    r = mb(chain, "-f", str(chain / "BUILD"), "c.txt", cwd=tmp_path.parent)
    assert r.returncode == 0, r.stderr
    assert sorted(ran(chain)) == ["B", "C"]
    assert not (chain / "d.txt").exists()
    (chain / "BUILD").write_text(CHAIN + "default d.txt\n")
    assert mb(chain).returncode == 0
    assert ran(chain) == ["D"]


def parallel_rules(tmp_path, want):
    """Four independent commands. Each marks itself running, waits (a barrier, given up after at least 60 s)
    until ``want`` commands are running, notes how many are running then and again a moment later, and
    unmarks itself. The peak of the notes is the parallelism actually used, whatever the machine's load."""
    run_dir = tmp_path / "running"
    run_dir.mkdir(exist_ok=True)
    count = f"ls {run_dir} | wc -l"
    rules = "".join(
        f"build o{i}: \n    touch {run_dir}/{i}; n=0; "
        f"while [ $({count}) -lt {want} ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done; "
        f"{count} >> peaks; sleep 0.5; {count} >> peaks; rm {run_dir}/{i}; echo {i} > o{i}\n"
        for i in range(4))
    rules += "build final: o0 o1 o2 o3\n    cat o0 o1 o2 o3 > final\n"
    (tmp_path / "BUILD").write_text(rules)


def peak(tmp_path):
    p = tmp_path / "peaks"
    out = max(int(x) for x in p.read_text().split())
    p.unlink()
    return out


def test_parallel(tmp_path):
    parallel_rules(tmp_path, 4)
    r = mb(tmp_path, "-j", "4")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "final").read_text() == "0\n1\n2\n3\n"
    assert peak(tmp_path) == 4, "-j 4 did not run the four commands at the same time"
    for i in range(4):
        os.remove(tmp_path / f"o{i}")
    parallel_rules(tmp_path, 2)
    assert mb(tmp_path, "-j", "2").returncode == 0
    assert peak(tmp_path) == 2, "-j 2 must run two commands at the same time, never more"


def test_failure_and_resume(tmp_path):
    build = """
build ok.txt:
    echo OK >> log; echo fine > ok.txt
build bad.txt: ok.txt
    echo BAD >> log; echo partial > bad.txt; exit 3
build after.txt: bad.txt
    echo AFTER >> log; cp bad.txt after.txt
build noout.txt:
    echo NOOUT >> log; true
"""
    (tmp_path / "BUILD").write_text(build)
    r = mb(tmp_path, "ok.txt", "after.txt")
    assert r.returncode == 1
    assert ran(tmp_path) == ["OK", "BAD"]
    assert not (tmp_path / "bad.txt").exists() and not (tmp_path / "after.txt").exists()
    (tmp_path / "BUILD").write_text(build.replace("echo partial > bad.txt; exit 3", "echo good > bad.txt"))
    r = mb(tmp_path, "ok.txt", "after.txt")
    assert r.returncode == 0, r.stderr
    assert ran(tmp_path) == ["BAD", "AFTER"]
    r = mb(tmp_path, "noout.txt")
    assert r.returncode == 1
    assert ran(tmp_path) == ["NOOUT"]


@pytest.mark.parametrize("build,args", [
    ("build a: b\n    echo X >> log; cp b a\nbuild b: a\n    echo Y >> log; cp a b\n", []),
    ("build a: missing.txt\n    echo X >> log; touch a\n", []),
    ("build a:\n    echo X >> log; touch a\n", ["nosuch"]),
    ("build a:\n    echo X >> log; touch a\nbuild a:\n    touch a\n", []),
    ("build a:\nbuild b:\n    touch b\n", []),
    ("bulid a:\n    touch a\n", []),
    ("build z:\n    echo Z >> log; touch z\nbuild a: b\n    echo X >> log; touch a\nbuild b: c\n    touch b\nbuild c: a\n    touch c\n", []),
])
def test_errors_before_running(tmp_path, build, args):
    (tmp_path / "BUILD").write_text(build)
    r = mb(tmp_path, *args)
    assert r.returncode == 2, (build, r.stdout, r.stderr)
    assert ran(tmp_path) == []
    (tmp_path / "BUILD").write_text("build ok:\n    echo OK >> log; touch ok\n")
    assert mb(tmp_path).returncode == 0
    assert ran(tmp_path) == ["OK"]
