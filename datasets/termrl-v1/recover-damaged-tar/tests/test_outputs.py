import hashlib
import os
from pathlib import Path

import pytest

REC = Path("/app/recovered")
RECOVERABLE = ["data/blob1.bin", "data/blob2.bin", "docs/notes.md", "docs/plan.txt", "docs/readme.txt",
               "etc/app.conf", "etc/hosts.allow", "etc/users.csv", "img/logo.raw"]
LOST = ["data/archive.bin", "data/ledger.db", "docs/last.txt"]


@pytest.fixture(scope="module")
def manifest():
    m = {}
    for line in Path("/app/backup/manifest.sha256").read_text().splitlines():
        h, name = line.split("  ", 1)
        m[name] = h
    return m


def sha(p):
    return hashlib.sha256(p.read_bytes()).hexdigest()


def recovered_files():
    return sorted(str(p.relative_to(REC)) for p in REC.rglob("*") if p.is_file() or p.is_symlink())


def test_intact_members_recovered(manifest):
    for name in ["data/blob1.bin", "etc/app.conf", "img/logo.raw", "etc/hosts.allow", "docs/readme.txt"]:
        assert sha(REC / name) == manifest[name], name


def test_member_behind_damaged_header_recovered(manifest):
    p = REC / "docs" / "plan.txt"
    assert p.is_file(), "docs/plan.txt is intact inside the archive but was not recovered"
    assert sha(p) == manifest["docs/plan.txt"]


def test_no_corrupt_or_extra_files(manifest):
    files = recovered_files()
    assert files == sorted(RECOVERABLE)
    for f in files:
        assert sha(REC / f) == manifest[f], f"{f} does not match the manifest"


def test_unrecoverable_list():
    assert Path("/app/unrecoverable.txt").read_text().splitlines() == LOST


def test_backup_untouched():
    assert sorted(os.listdir("/app/backup")) == ["backup.tar", "manifest.sha256"]
    assert sha(Path("/app/backup/backup.tar")) == TAR_SHA
TAR_SHA = "a69d533df37d8573ceade50971663b9da1ef7703a661ca326ebe1765bf029f99"
