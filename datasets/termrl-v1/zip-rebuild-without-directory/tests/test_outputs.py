import calendar
import datetime
import hashlib
import json
import os
from pathlib import Path

import pytest

R = Path("/app/restored")
META = {
    "project/README.txt": {
        "sha256": "a0c538e9e7793628893ec9f31d57d9c64535d5095bf6efd5b757a8d7ca6c6fc2",
        "mtime": "2023-04-01T09:31:10"
    },
    "project/src/main.c": {
        "sha256": "f3585acb7d4f9cd84db8a4792511ca1cb1be8ff5ae89ce3c1a0a4dd942605f5b",
        "mtime": "2023-04-02T14:05:22"
    },
    "project/data/table.bin": {
        "sha256": "6fb9c60c29b595cf4e8e238494fc41287c68dbacb0bcc9f1b5e00d404c4d3053",
        "mtime": "2023-04-03T08:00:00"
    },
    "project/data/raw.bin": {
        "sha256": "00b7f10b3aaae0be6a64fccad5a529506edea954d35aa747dacb95a1acf82960",
        "mtime": "2022-12-31T23:59:58"
    },
    "project/docs/résumé.txt": {
        "sha256": "ebc50a0941568c0f0f162996ac6dccc0c20a78fb259839eb885d2d219a79c6ba",
        "mtime": "2023-05-06T07:08:10"
    },
    "project/logs/app.log": {
        "sha256": "d4c19f937e95ce7e2d4ccdfdc866ce4355188d5706a68d3a6609ac9b7b001a6f",
        "mtime": "2023-06-01T00:00:02"
    },
    "project/empty.txt": {
        "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "mtime": "2023-06-02T01:02:04"
    }
}
ZIP_SHA = "ad64641f9d0064da407442ac78a04f20841969362143fa57add628725eebad3c"


def files_under(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_restored_contents():
    for name, m in META.items():
        p = R / name
        assert p.is_file(), name
        assert hashlib.sha256(p.read_bytes()).hexdigest() == m["sha256"], name


def test_descriptor_entries_restored():
    for name in ["project/src/main.c", "project/data/table.bin", "project/docs/résumé.txt", "project/logs/app.log"]:
        assert hashlib.sha256((R / name).read_bytes()).hexdigest() == META[name]["sha256"]


def test_no_damaged_or_extra_files():
    assert files_under(R) == sorted(META)
    assert not (R / "project/docs/broken.txt").exists()
    assert (R / "project").is_dir()


def test_mtimes_from_dos_fields():
    for name, m in META.items():
        want = calendar.timegm(datetime.datetime.fromisoformat(m["mtime"]).timetuple())
        assert int((R / name).stat().st_mtime) == want, name


def test_report():
    rep = json.loads(Path("/app/restore_report.json").read_text(encoding="utf-8"))
    assert rep == {"restored": sorted(META), "damaged": ["project/docs/broken.txt"]}


def test_zip_untouched():
    assert hashlib.sha256(Path("/app/incoming/project.zip").read_bytes()).hexdigest() == ZIP_SHA
