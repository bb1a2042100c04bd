import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SRC, DST = Path("/srv/projects"), Path("/backup/projects")


def tree(root, skip=()):
    out = {}
    for dp, dns, fns in os.walk(root):
        for n in dns + fns:
            p = Path(dp) / n
            rel = str(p.relative_to(root))
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", stat.S_IMODE(st.st_mode))
            else:
                out[rel] = ("file", p.read_bytes(), stat.S_IMODE(st.st_mode), int(st.st_mtime))
    return out


def run(src, dst, *ex):
    args = [sys.executable, "/app/mirror.py", str(src), str(dst)]
    for e in ex:
        args += ["--exclude", e]
    r = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip().splitlines()[-1]


def test_backup_mirrors_source():
    s = {k: v for k, v in tree(SRC).items() if not (k.endswith(".tmp") or k == "cache" or k.startswith("cache/"))}
    d = {k: v for k, v in tree(DST).items() if k != "site/local.tmp"}
    assert d == s


def test_backup_kept_excluded_and_removed_stale():
    assert (DST / "site/local.tmp").read_text() == "keep tmp\n"
    assert not (DST / "site/old").exists() and not (DST / "site/css.old").exists()
    assert not (DST / "cache").exists() and not (DST / "site/draft.tmp").exists()
    assert os.readlink(DST / "home-link") == "site/index.html"
    assert stat.S_IMODE((DST / "tools/build.sh").stat().st_mode) == 0o750


def make_src(root):
    (root / "a/b").mkdir(parents=True)
    (root / "logs").mkdir()
    (root / "a/one.txt").write_text("one\n")
    (root / "a/b/two.bin").write_bytes(os.urandom(3000))
    (root / "logs/app.log").write_text("log\n")
    (root / "logs/keep.txt").write_text("keep\n")
    os.symlink("a/one.txt", root / "ln")
    os.chmod(root / "a/one.txt", 0o600)


def test_fresh_counts_and_second_run(tmp_path):
    src, dst = tmp_path / "s", tmp_path / "d"
    src.mkdir()
    make_src(src)
    assert run(src, dst, "logs/*.log") == "copied 4 deleted 0 unchanged 0"
    assert not (dst / "logs/app.log").exists() and (dst / "logs/keep.txt").exists()
    before = {p: os.lstat(p).st_ctime_ns for p in [dst / "a/one.txt", dst / "a/b/two.bin"]}
    assert run(src, dst, "logs/*.log") == "copied 0 deleted 0 unchanged 4"
    assert before == {p: os.lstat(p).st_ctime_ns for p in before}, "up-to-date files were rewritten"
    assert stat.S_IMODE((dst / "a/one.txt").stat().st_mode) == 0o600


def test_quick_check_semantics(tmp_path):
    src, dst = tmp_path / "s", tmp_path / "d"
    src.mkdir()
    make_src(src)
    run(src, dst)
    # same size, same mtime, different content: considered up to date
    (dst / "a/one.txt").write_text("ONE\n")
    st = (src / "a/one.txt").stat()
    os.utime(dst / "a/one.txt", ns=(st.st_atime_ns, st.st_mtime_ns))
    # changed mtime only: copied again
    os.utime(src / "logs/keep.txt", (1000000000, 1000000000))
    out = run(src, dst)
    assert out == "copied 1 deleted 0 unchanged 4"
    assert (dst / "a/one.txt").read_text() == "ONE\n"
    assert int((dst / "logs/keep.txt").stat().st_mtime) == 1000000000


def test_deletions_and_type_changes(tmp_path):
    src, dst = tmp_path / "s", tmp_path / "d"
    src.mkdir()
    make_src(src)
    run(src, dst)
    (dst / "extra").mkdir()
    (dst / "extra/f1").write_text("x")
    (dst / "extra/f2").write_text("y")
    (dst / "stray.txt").write_text("z")
    os.symlink("nowhere", dst / "a/dangling")
    out = run(src, dst)
    assert out == "copied 0 deleted 4 unchanged 5"
    assert tree(dst) == tree(src)
