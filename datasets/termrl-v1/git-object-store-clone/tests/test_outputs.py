import os
import random
import shutil
import subprocess

import pytest

ENV = dict(os.environ, GIT_AUTHOR_NAME="Ada Lovelace", GIT_AUTHOR_EMAIL="ada@example.org",
           GIT_AUTHOR_DATE="1700000000 +0100", GIT_COMMITTER_NAME="Charles B", GIT_COMMITTER_EMAIL="cb@example.org",
           GIT_COMMITTER_DATE="1700000500 -0230", GIT_CONFIG_NOSYSTEM="1", HOME="/tmp")


def pg(cwd, *args):
    return subprocess.run(["python3", "/app/pygit.py", *args], cwd=cwd, capture_output=True, env=ENV, timeout=60)


def git(cwd, *args):
    return subprocess.run(["git", "-c", "safe.directory=*", *args], cwd=cwd, capture_output=True, env=ENV, timeout=60)


def make_tree(root, seed):
    rng = random.Random(seed)
    names = ["a", "a.txt", "a-b", "a_b", "b", "B", "z", "foo.c", "foo", "foo0", "x y", "ünï"]
    dirs = [root]
    for _ in range(rng.randint(8, 20)):
        parent = rng.choice(dirs)
        name = rng.choice(names)
        p = parent / name
        if p.exists() or p.is_symlink():
            continue
        k = rng.random()
        if k < 0.3:
            p.mkdir()
            dirs.append(p)
        elif k < 0.85:
            p.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))))
            if rng.random() < 0.3:
                os.chmod(p, 0o755)
        else:
            os.symlink(rng.choice(["a", "../x", "target with space", "/abs/path"]), p)
    (root / "empty_dir").mkdir(exist_ok=True)


def git_tree_id(src, tmp_path):
    ref = tmp_path / "ref"
    shutil.copytree(src, ref, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    assert git(ref, "init", "-q").returncode == 0
    git(ref, "config", "core.fileMode", "true")
    assert git(ref, "add", "-A").returncode == 0
    return git(ref, "write-tree").stdout.decode().strip(), ref


def test_init_and_hash_object(tmp_path):
    assert pg(tmp_path, "init").returncode == 0
    assert (tmp_path / ".git/HEAD").read_text() == "ref: refs/heads/master\n"
    assert git(tmp_path, "rev-parse", "--git-dir").stdout.strip() == b".git"
    f = tmp_path / "f.bin"
    f.write_bytes(b"hello\x00world\n" * 3)
    want = git(tmp_path, "hash-object", "f.bin").stdout
    r = pg(tmp_path, "hash-object", "f.bin")
    assert r.stdout == want
    assert not (tmp_path / ".git/objects" / want[:2].decode()).exists()
    assert pg(tmp_path, "hash-object", "-w", "f.bin").stdout == want
    assert git(tmp_path, "cat-file", "-p", want.decode().strip()).stdout == f.read_bytes()


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_write_tree_matches_git(tmp_path, seed):
    src = tmp_path / "w"
    src.mkdir()
    make_tree(src, seed)
    want, _ = git_tree_id(src, tmp_path)
    assert pg(src, "init").returncode == 0
    r = pg(src, "write-tree")
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().strip() == want
    fsck = git(src, "fsck", "--strict", "--no-dangling")
    assert fsck.returncode == 0, fsck.stderr


def test_commit_tree_and_log(tmp_path):
    src = tmp_path / "w"
    src.mkdir()
    make_tree(src, 9)
    want_tree, ref = git_tree_id(src, tmp_path)
    c1_git = git(ref, "commit-tree", want_tree, "-m", "first commit").stdout.decode().strip()
    c2_git = git(ref, "commit-tree", want_tree, "-p", c1_git, "-m", "second\n\nbody line").stdout.decode().strip()
    pg(src, "init")
    tree = pg(src, "write-tree").stdout.decode().strip()
    c1 = pg(src, "commit-tree", tree, "-m", "first commit").stdout.decode().strip()
    assert c1 == c1_git
    c2 = pg(src, "commit-tree", tree[:7], "-p", c1[:10], "-m", "second\n\nbody line").stdout.decode().strip()
    assert c2 == c2_git
    assert pg(src, "update-ref", "refs/heads/master", c2).returncode == 0
    log = git(src, "log", "--format=%H %s")
    assert log.stdout.decode().split("\n")[:2] == [f"{c2} second", f"{c1} first commit"]
    assert git(src, "fsck", "--strict").returncode == 0
    assert git(src, "ls-tree", "-r", "HEAD").stdout == git(ref, "ls-tree", "-r", want_tree).stdout


def test_cat_file_reads_git_objects(tmp_path):
    src = tmp_path / "w"
    src.mkdir()
    make_tree(src, 11)
    tree, ref = git_tree_id(src, tmp_path)
    for args in (["-t", tree], ["-s", tree], ["-p", tree]):
        assert pg(ref, "cat-file", *args).stdout == git(ref, "cat-file", *args).stdout, args
    c = git(ref, "commit-tree", tree, "-m", "msg").stdout.decode().strip()
    for args in (["-t", c], ["-p", c], ["-s", c[:6]]):
        assert pg(ref, "cat-file", *args).stdout == git(ref, "cat-file", *args).stdout, args
    blobs = [l.split()[2] for l in git(ref, "ls-tree", "-r", tree).stdout.decode().splitlines()]
    for b in blobs[:5]:
        assert pg(ref, "cat-file", "-p", b).stdout == git(ref, "cat-file", "-p", b).stdout


def test_cat_file_errors(tmp_path):
    pg(tmp_path, "init")
    (tmp_path / "x").write_text("x")
    oid = pg(tmp_path, "hash-object", "-w", "x").stdout.decode().strip()
    assert pg(tmp_path, "cat-file", "-p", oid[:4]).stdout == b"x"
    assert pg(tmp_path, "cat-file", "-p", "deadbeef").returncode == 1
    assert pg(tmp_path, "cat-file", "-p", "abc").returncode == 1
    assert pg(tmp_path, "frobnicate").returncode == 2
