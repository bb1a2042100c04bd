import grp
import os
import pwd
import stat
from pathlib import Path

import pytest

R = Path("/srv/site")
SECRET = R / "config" / "secrets.env"


def entries():
    out = [R]
    for dirpath, dirnames, filenames in os.walk(R):
        for n in dirnames + filenames:
            out.append(Path(dirpath) / n)
    return out


def owner(p):
    st = os.lstat(p)
    return pwd.getpwuid(st.st_uid).pw_name, grp.getgrgid(st.st_gid).gr_name


def test_group_exists():
    grp.getgrnam("webdev")


def test_directories():
    dirs = [p for p in entries() if stat.S_ISDIR(os.lstat(p).st_mode)]
    assert len(dirs) == 10
    for d in dirs:
        assert stat.S_IMODE(os.lstat(d).st_mode) == 0o2775, d
        assert owner(d) == ("root", "webdev"), d


def test_regular_files():
    files = [p for p in entries() if stat.S_ISREG(os.lstat(p).st_mode)]
    assert len(files) == 13
    for f in files:
        m = stat.S_IMODE(os.lstat(f).st_mode)
        if f == SECRET:
            continue
        want = 0o775 if (f.parent == R / "bin" and f.name.endswith(".sh")) else 0o664
        assert m == want, f"{f}: {oct(m)}"
        assert owner(f) == ("root", "webdev"), f


def test_secret():
    assert stat.S_IMODE(os.lstat(SECRET).st_mode) == 0o640
    assert owner(SECRET) == ("root", "www-data")
    assert SECRET.read_text() == "DB_PASSWORD=hunter2\n"


def test_no_setuid_or_world_writable():
    for p in entries():
        st = os.lstat(p)
        if stat.S_ISLNK(st.st_mode):
            continue
        assert not st.st_mode & stat.S_ISUID, p
        assert not st.st_mode & stat.S_IWOTH, p


def test_symlink_and_contents_intact():
    link = R / "bin" / "index-link"
    assert link.is_symlink() and os.readlink(link) == "../public/index.html"
    assert (R / "public" / "odd name" / "page one.html").read_text() == "content of public/odd name/page one.html\n"
    assert (R / "bin" / "deploy.sh").read_text() == "#!/bin/sh\necho deploy\n"
