import datetime as dt
import os
import subprocess
import tarfile

import pytest


def run(logs, arch, days, today):
    return subprocess.run(["bash", "/app/logpack.sh", str(logs), str(arch), str(days), today], capture_output=True,
                          text=True, timeout=120)


def mk(logs, name, content=None):
    (logs / name).write_text(content if content is not None else f"content of {name}\n")


@pytest.fixture()
def dirs(tmp_path):
    logs, arch = tmp_path / "log dir", tmp_path / "arch ive"
    logs.mkdir()
    return logs, arch


def members(p):
    with tarfile.open(p) as tf:
        return sorted(tf.getnames())


def test_basic_archive(dirs):
    logs, arch = dirs
    for n in ["api-2024-03-01.log", "web front-2024-03-01.log", "db-main-2024-03-02.log", "api-2024-03-09.log",
              "api-2024-03-10.log", "notes.txt", "weird.log"]:
        mk(logs, n)
    r = run(logs, arch, 7, "2024-03-10")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "archived 3 files in 2 archives\n"
    assert members(arch / "2024-03-01.tar.gz") == ["api-2024-03-01.log", "web front-2024-03-01.log"]
    assert members(arch / "2024-03-02.tar.gz") == ["db-main-2024-03-02.log"]
    assert (arch / "manifest.txt").read_text() == "2024-03-01 2\n2024-03-02 1\n"
    assert sorted(os.listdir(logs)) == ["api-2024-03-09.log", "api-2024-03-10.log", "notes.txt", "weird.log"]


def test_cutoff_boundary(dirs):
    logs, arch = dirs
    mk(logs, "svc-2024-02-28.log")
    mk(logs, "svc-2024-02-29.log")
    mk(logs, "svc-2024-03-01.log")
    r = run(logs, arch, 2, "2024-03-02")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "archived 2 files in 2 archives\n"
    assert sorted(os.listdir(logs)) == ["svc-2024-03-01.log"]


def test_contents_preserved(dirs, tmp_path):
    logs, arch = dirs
    mk(logs, "a b c-2023-12-31.log", "line1\nline2\n")
    mk(logs, "-dash-2023-12-31.log", "dash\n")
    r = run(logs, arch, 1, "2024-01-05")
    assert r.returncode == 0, r.stderr
    out = tmp_path / "x"
    out.mkdir()
    with tarfile.open(arch / "2023-12-31.tar.gz") as tf:
        tf.extractall(out)
    assert (out / "a b c-2023-12-31.log").read_text() == "line1\nline2\n"
    assert (out / "-dash-2023-12-31.log").read_text() == "dash\n"


def test_existing_archive_fails_but_others_processed(dirs):
    logs, arch = dirs
    arch.mkdir()
    (arch / "2024-01-01.tar.gz").write_bytes(b"keep me")
    mk(logs, "x-2024-01-01.log")
    mk(logs, "x-2024-01-02.log")
    mk(logs, "y-2024-01-03.log")
    r = run(logs, arch, 3, "2024-01-10")
    assert r.returncode == 1
    assert r.stdout == "archived 2 files in 2 archives\n"
    assert (arch / "2024-01-01.tar.gz").read_bytes() == b"keep me"
    assert (logs / "x-2024-01-01.log").exists()
    assert (arch / "manifest.txt").read_text() == "2024-01-02 1\n2024-01-03 1\n"


def test_no_old_files(dirs):
    logs, arch = dirs
    mk(logs, "a-2024-06-01.log")
    r = run(logs, arch, 30, "2024-06-02")
    assert r.returncode == 0
    assert r.stdout == "archived 0 files in 0 archives\n"
    assert os.listdir(logs) == ["a-2024-06-01.log"]


def test_many_dates_counts(dirs):
    logs, arch = dirs
    start = dt.date(2024, 1, 1)
    n = 0
    for i in range(20):
        d = start + dt.timedelta(days=i)
        for s in range(i % 3 + 1):
            mk(logs, f"svc {s}-{d}.log")
            n += 1 if i < 16 else 0
    r = run(logs, arch, 5, "2024-01-21")
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"archived {n} files in 16 archives\n"
    lines = (arch / "manifest.txt").read_text().splitlines()
    assert [l.split()[0] for l in lines] == [str(start + dt.timedelta(days=i)) for i in range(16)]
    assert [int(l.split()[1]) for l in lines] == [i % 3 + 1 for i in range(16)]
