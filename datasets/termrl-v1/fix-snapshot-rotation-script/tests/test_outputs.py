import os
import subprocess

import pytest


def snap(src, dest, keep, cwd):
    return subprocess.run(["/app/snapshot.sh", str(src), str(dest), str(keep)], capture_output=True, text=True,
                          cwd=cwd, timeout=30)


@pytest.fixture()
def tree(tmp_path):
    src = tmp_path / "my data"
    (src / "sub dir").mkdir(parents=True)
    (src / "a file.txt").write_text("v1")
    (src / "sub dir" / "*.glob").write_text("g")
    os.chmod(src / "a file.txt", 0o640)
    dest = tmp_path / "back ups"
    work = tmp_path / "work"
    work.mkdir()
    return src, dest, work


def snaps(dest):
    return sorted(int(p[5:]) for p in os.listdir(dest) if p.startswith("snap-"))


def test_first_snapshot_with_spaces(tree):
    src, dest, work = tree
    r = snap(src, dest, 3, work)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{dest}/snap-1\n"
    assert (dest / "snap-1" / "a file.txt").read_text() == "v1"
    assert (dest / "snap-1" / "sub dir" / "*.glob").read_text() == "g"
    assert oct(os.stat(dest / "snap-1" / "a file.txt").st_mode & 0o777) == "0o640"


def test_retention_keeps_newest(tree):
    src, dest, work = tree
    for i in range(1, 6):
        (src / "a file.txt").write_text(f"v{i}")
        assert snap(src, dest, 3, work).returncode == 0
    assert snaps(dest) == [3, 4, 5]
    assert (dest / "snap-5" / "a file.txt").read_text() == "v5"
    assert os.listdir(work) == []


def test_numeric_order_past_nine(tree):
    src, dest, work = tree
    outs = []
    for i in range(1, 13):
        (src / "a file.txt").write_text(f"v{i}")
        r = snap(src, dest, 4, work)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout.strip())
    assert outs[-1] == f"{dest}/snap-12"
    assert snaps(dest) == [9, 10, 11, 12]
    assert (dest / "snap-12" / "a file.txt").read_text() == "v12"
    assert (dest / "snap-9" / "a file.txt").read_text() == "v9"


def test_other_entries_untouched(tree):
    src, dest, work = tree
    dest.mkdir()
    (dest / "notes.txt").write_text("keep me")
    (dest / "snap-old").mkdir()
    for _ in range(3):
        assert snap(src, dest, 1, work).returncode == 0
    assert sorted(os.listdir(dest)) == ["notes.txt", "snap-3", "snap-old"]


def test_dash_names(tmp_path):
    src = tmp_path / "-src"
    src.mkdir()
    (src / "f").write_text("x")
    r = subprocess.run(["/app/snapshot.sh", "-src", "-dest", "2"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "-dest/snap-1\n"
    assert (tmp_path / "-dest" / "snap-1" / "f").read_text() == "x"


def test_usage(tmp_path):
    r = subprocess.run(["/app/snapshot.sh", "a", "b"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == "" and "usage" in r.stderr.lower()
    (tmp_path / "s").mkdir()
    assert snap(tmp_path / "s", tmp_path / "d", 2, tmp_path).returncode == 0
