import os
import subprocess
from pathlib import Path

import pytest

EXPECTED = [
    ("  spaced   out  .txt", "spaced-out.txt"),
    ("--weird--name--.md", "weird-name.md"),
    ("Holiday Photo.JPG", "holiday-photo.jpg"),
    ("NOTES.txt", "notes.txt"),
    ("README", "readme"),
    ("Report (final) v2.PDF", "report-final-v2.pdf"),
    ("Résumé 2024.docx", "r-sum-2024.docx"),
    ("archive.tar.GZ", "archive-tar.gz"),
    ("holiday photo.jpg", "holiday-photo-2.jpg"),
    ("holiday_photo.jpeg", "holiday-photo-3.jpg"),
    ("notes.TXT", "notes-2.txt"),
    ("report-final-v2.pdf", "report-final-v2-2.pdf"),
]


def test_inbox_files_renamed_with_contents():
    d = Path("/app/inbox")
    files = {p.name: p.read_text() for p in d.iterdir() if p.is_file()}
    assert files == {new: old + "\n" for old, new in EXPECTED}


def test_subfolder_untouched():
    assert (Path("/app/inbox/Sub Folder/Keep Me.TXT")).read_text() == "inner\n"


def test_rename_log():
    lines = Path("/app/inbox_renames.tsv").read_text(encoding="utf-8").splitlines()
    assert lines == [f"{a}\t{b}" for a, b in EXPECTED]


def run(d):
    r = subprocess.run(["/app/normalize", str(d)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return [tuple(l.rsplit("\t", 1)) for l in r.stdout.splitlines()]


def test_hidden_directory(tmp_path):
    names = ["A.txt", "a.txt", ".hidden", "x.", "a.b.c", "UPPER.JPEG", "!!!.txt", "file.txt", "already-clean.md",
             "tab\tname.log"]
    for n in names:
        (tmp_path / n).write_text("content of " + n)
    (tmp_path / "dir.d").mkdir()
    out = run(tmp_path)
    want = [
        ("!!!.txt", "file.txt"),
        (".hidden", "hidden"),
        ("A.txt", "a.txt"),
        ("UPPER.JPEG", "upper.jpg"),
        ("a.b.c", "a-b.c"),
        ("a.txt", "a-2.txt"),
        ("already-clean.md", "already-clean.md"),
        ("file.txt", "file-2.txt"),
        ("tab\tname.log", "tab-name.log"),
        ("x.", "x"),
    ]
    assert out == want
    got = {p.name: p.read_text() for p in tmp_path.iterdir() if p.is_file()}
    assert got == {new: "content of " + old for old, new in want}
    assert (tmp_path / "dir.d").is_dir()


def test_idempotent(tmp_path):
    for n in ["One Two.TXT", "one-two.txt"]:
        (tmp_path / n).write_text(n)
    run(tmp_path)
    second = run(tmp_path)
    assert all(a == b for a, b in second)
