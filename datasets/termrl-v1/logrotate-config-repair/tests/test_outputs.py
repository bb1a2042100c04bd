import gzip
import grp
import os
import pwd
import stat
import subprocess
from pathlib import Path

import pytest

D = Path("/var/log/webapp")
COUNT = Path("/var/lib/webapp-reopen.count")


def rotate(state):
    return subprocess.run(["logrotate", "-f", "-s", str(state), "/etc/logrotate.d/webapp"],
                          capture_output=True, text=True, timeout=60)


def reopen_count():
    return len(COUNT.read_text().splitlines()) if COUNT.exists() else 0


def write(name, text):
    with open(D / name, "a") as fh:
        fh.write(text)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    state = tmp_path_factory.mktemp("s") / "state"
    results = []
    for i in range(1, 8):
        write("access.log", f"access round {i}\n")
        write("error.log", f"error round {i}\n")
        before = reopen_count()
        r = rotate(state)
        results.append((r, reopen_count() - before))
    before = reopen_count()
    for p in D.glob("*.log"):
        p.write_text("")
    r = rotate(state)
    results.append((r, reopen_count() - before))
    return results


def test_runs_succeed(runs):
    for r, _ in runs:
        assert r.returncode == 0, r.stderr


def test_rotation_chain(runs):
    assert (D / "access.log.1").read_text() == "access round 7\n"
    with gzip.open(D / "access.log.2.gz", "rt") as fh:
        assert fh.read() == "access round 6\n"
    with gzip.open(D / "error.log.5.gz", "rt") as fh:
        assert fh.read() == "error round 3\n"
    names = sorted(p.name for p in D.iterdir())
    assert names == sorted(["access.log", "error.log", "debug.log", "access.log.1", "error.log.1"] +
                           [f"{n}.log.{k}.gz" for n in ("access", "error") for k in range(2, 6)])


def test_new_file_ownership(runs):
    for n in ("access.log", "error.log"):
        st = (D / n).stat()
        assert stat.S_IMODE(st.st_mode) == 0o640
        assert pwd.getpwuid(st.st_uid).pw_name == "webapp" and grp.getgrgid(st.st_gid).gr_name == "adm"


def test_empty_log_not_rotated(runs):
    assert not any(p.name.startswith("debug.log.") for p in D.iterdir())


def test_hook_once_per_run(runs):
    assert [delta for _, delta in runs[:7]] == [1] * 7
    assert runs[7][1] == 0, "nothing was rotated, the hook must not run"
