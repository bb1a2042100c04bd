import gzip
import os
import stat
import subprocess
from pathlib import Path

import pytest

SCRIPT = "/app/rotate.sh"
SHOP = Path("/var/log/shopd")


def rotate(d, keep):
    return subprocess.run(["bash", SCRIPT, str(d), str(keep)], capture_output=True, text=True, timeout=60)


def gz(p):
    with gzip.open(p, "rb") as fh:
        return fh.read()


def mode(p):
    return stat.S_IMODE(os.stat(p).st_mode)


def test_shopd_rotated_once():
    assert (SHOP / "access.log").stat().st_size == 0
    lines = (SHOP / "access.log.1").read_text().splitlines()
    assert len(lines) == 40 and lines[0].endswith("request 1 ok")
    assert gz(SHOP / "access.log.2.gz") == b"old rotated one\n"
    assert gz(SHOP / "access.log.3.gz") == b"older rotated two\n"
    assert not (SHOP / "access.log.4.gz").exists()
    assert (SHOP / "error.log.1").read_text().count("crashed") == 7
    assert (SHOP / "error.log").stat().st_size == 0
    assert mode(SHOP / "access.log") == 0o640 and mode(SHOP / "access.log.1") == 0o640


def test_shopd_untouched_files():
    names = sorted(p.name for p in SHOP.iterdir())
    assert names == sorted(["access.log", "access.log.1", "access.log.2.gz", "access.log.3.gz",
                            "error.log", "error.log.1", "debug.log", "notes.txt"])
    assert (SHOP / "notes.txt").read_text() == "keep me\n"
    assert mode(SHOP / "debug.log") == 0o600


def test_chain_with_open_writer(tmp_path):
    log = tmp_path / "app.log"
    log.write_text("")
    os.chmod(log, 0o604)
    ino = log.stat().st_ino
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        for gen in range(1, 7):
            os.write(fd, f"generation {gen}\n".encode() * gen)
            r = rotate(tmp_path, 3)
            assert r.returncode == 0, r.stderr
        os.write(fd, b"after\n")
    finally:
        os.close(fd)
    assert log.stat().st_ino == ino, "the live log must be truncated in place, not replaced"
    assert log.read_bytes() == b"after\n"
    assert mode(log) == 0o604 and mode(tmp_path / "app.log.1") == 0o604
    assert (tmp_path / "app.log.1").read_bytes() == b"generation 6\n" * 6
    assert gz(tmp_path / "app.log.2.gz") == b"generation 5\n" * 5
    assert gz(tmp_path / "app.log.3.gz") == b"generation 4\n" * 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.log", "app.log.1", "app.log.2.gz", "app.log.3.gz"]


def test_keep_one(tmp_path):
    log = tmp_path / "x.log"
    for i in range(3):
        log.write_text(f"round {i}\n")
        assert rotate(tmp_path, 1).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.log", "x.log.1"]
    assert (tmp_path / "x.log.1").read_text() == "round 2\n"


def test_scope_of_rotation(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "inner.log").write_text("inner\n")
    (tmp_path / "data.txt").write_text("text\n")
    (tmp_path / "logfile").write_text("no suffix\n")
    (tmp_path / "empty.log").write_text("")
    (tmp_path / "real.log").write_text("r\n")
    assert rotate(tmp_path, 5).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["sub", "data.txt", "logfile", "empty.log", "real.log", "real.log.1"])
    assert sorted(p.name for p in (tmp_path / "sub").iterdir()) == ["inner.log"]
    assert (tmp_path / "sub" / "inner.log").read_text() == "inner\n"


def test_shift_existing_gz_chain(tmp_path):
    (tmp_path / "s.log").write_text("new\n")
    (tmp_path / "s.log.1").write_text("one\n")
    for k in (2, 3, 4, 5):
        with gzip.open(tmp_path / f"s.log.{k}.gz", "wb") as fh:
            fh.write(f"v{k}\n".encode())
    assert rotate(tmp_path, 4).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.log", "s.log.1", "s.log.2.gz", "s.log.3.gz", "s.log.4.gz"]
    assert (tmp_path / "s.log.1").read_text() == "new\n"
    assert gz(tmp_path / "s.log.2.gz") == b"one\n"
    assert gz(tmp_path / "s.log.3.gz") == b"v2\n"
    assert gz(tmp_path / "s.log.4.gz") == b"v3\n"


def test_bad_arguments(tmp_path):
    ok = rotate(tmp_path, 3)
    assert ok.returncode == 0, ok.stderr
    assert rotate(tmp_path / "missing", 3).returncode != 0
    assert rotate(tmp_path, 0).returncode != 0
    assert rotate(tmp_path, "abc").returncode != 0
