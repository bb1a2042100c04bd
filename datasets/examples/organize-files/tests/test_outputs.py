from pathlib import Path

INBOX = Path("/app/inbox")
SORTED = Path("/app/sorted")

# file name -> (folder under /app/sorted, content)
EXPECTED = {
    '.notes': ('no_extension', "this is the file '.notes'\n"),
    'Makefile': ('no_extension', "this is the file 'Makefile'\n"),
    'README.md': ('md', "this is the file 'README.md'\nthis is the file 'README.md'\n"),
    'TODO': ('no_extension', "this is the file 'TODO'\n"),
    'archive.tar.gz': ('gz', "this is the file 'archive.tar.gz'\nthis is the file 'archive.tar.gz'\nthis is the file 'archive.tar.gz'\n"),
    'data.csv': ('csv', "this is the file 'data.csv'\n"),
    'deploy.sh': ('sh', "this is the file 'deploy.sh'\nthis is the file 'deploy.sh'\n"),
    'holiday.jpeg': ('jpeg', "this is the file 'holiday.jpeg'\n"),
    'logs.2024.gz': ('gz', "this is the file 'logs.2024.gz'\n"),
    'my notes (old).txt': ('txt', "this is the file 'my notes (old).txt'\nthis is the file 'my notes (old).txt'\nthis is the file 'my notes (old).txt'\n"),
    'notes.txt': ('txt', "this is the file 'notes.txt'\nthis is the file 'notes.txt'\n"),
    'photo.JPG': ('jpg', "this is the file 'photo.JPG'\nthis is the file 'photo.JPG'\n"),
    'report.pdf': ('pdf', "this is the file 'report.pdf'\nthis is the file 'report.pdf'\nthis is the file 'report.pdf'\n"),
    'scan.Jpg': ('jpg', "this is the file 'scan.Jpg'\n"),
    'summary.PDF': ('pdf', "this is the file 'summary.PDF'\nthis is the file 'summary.PDF'\nthis is the file 'summary.PDF'\nthis is the file 'summary.PDF'\n"),
    'v1.2.3.log': ('log', "this is the file 'v1.2.3.log'\nthis is the file 'v1.2.3.log'\nthis is the file 'v1.2.3.log'\n"),
}


def test_inbox_empty():
    assert INBOX.is_dir(), "/app/inbox must still exist"
    assert sorted(p.name for p in INBOX.iterdir()) == []


def test_folders():
    assert SORTED.is_dir(), "/app/sorted does not exist"
    folders = sorted(p.name for p in SORTED.iterdir())
    assert folders == sorted({folder for folder, _ in EXPECTED.values()})
    assert all((SORTED / name).is_dir() for name in folders)


def test_every_file_in_its_folder_with_content():
    for name, (folder, content) in EXPECTED.items():
        path = SORTED / folder / name
        assert path.is_file(), f"missing {path}"
        assert path.read_text() == content, f"content of {path} changed"


def test_no_extra_files():
    found = sorted(str(p.relative_to(SORTED)) for p in SORTED.rglob("*") if not p.is_dir())
    assert found == sorted(f"{folder}/{name}" for name, (folder, _) in EXPECTED.items())


def test_case_and_hidden_files():
    assert (SORTED / "jpg" / "photo.JPG").is_file()
    assert (SORTED / "jpg" / "scan.Jpg").is_file()
    assert (SORTED / "jpeg" / "holiday.jpeg").is_file()
    assert (SORTED / "no_extension" / ".notes").is_file()
    assert (SORTED / "no_extension" / "Makefile").is_file()
    assert (SORTED / "gz" / "archive.tar.gz").is_file()
