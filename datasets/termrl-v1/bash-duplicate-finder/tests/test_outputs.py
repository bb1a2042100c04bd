import hashlib
import os
import random
import subprocess

import pytest


def run(*args):
    return subprocess.run(["bash", "/app/dupfind.sh", *map(str, args)], capture_output=True, timeout=120)


def expected(root):
    by = {}
    for dp, dns, fns in os.walk(root):
        for fn in fns:
            p = os.path.join(dp, fn)
            if os.path.islink(p) or not os.path.isfile(p) or os.path.getsize(p) == 0:
                continue
            by.setdefault(open(p, "rb").read(), []).append(os.path.relpath(p, root).encode())
    groups = sorted(sorted(v) for v in by.values() if len(v) > 1)
    return b"\n".join(b"".join(x + b"\n" for x in g) for g in groups)


def build(tmp_path, seed):
    rng = random.Random(seed)
    root = tmp_path / f"tree{seed}"
    names = ["a", "b c", "-dash", "q'uote", "st*ar", "wh?y", "[br]", "ünï", "x.txt", "Y", "zz z", "\"dq\""]
    dirs = [root, root / "sub dir", root / "sub dir" / "deep", root / "-opt", root / "ü"]
    for d in dirs:
        d.mkdir(parents=True, exist_ok=True)
    contents = [b"alpha\n", b"beta", b"alpha", b"\x00\x01bin", b"", b"gamma\n" * 100]
    for _ in range(rng.randint(8, 25)):
        p = rng.choice(dirs) / (rng.choice(names) + str(rng.randint(0, 3)))
        p.write_bytes(rng.choice(contents))
    return root


def test_basic_groups(tmp_path):
    root = tmp_path / "r"
    (root / "s").mkdir(parents=True)
    (root / "one").write_text("same")
    (root / "s" / "two").write_text("same")
    (root / "three").write_text("other")
    (root / "e1").write_text("")
    (root / "e2").write_text("")
    r = run(root)
    assert r.returncode == 0
    assert r.stdout == b"one\ns/two\n"


def test_no_dups(tmp_path):
    (tmp_path / "a").write_text("1")
    (tmp_path / "b").write_text("2")
    r = run(tmp_path)
    assert r.returncode == 0 and r.stdout == b""


def test_random_trees(tmp_path):
    for seed in range(8):
        root = build(tmp_path, seed)
        r = run(root)
        assert r.returncode == 0, r.stderr
        assert r.stdout == expected(root), seed


def test_symlinks_ignored_hardlinks_counted(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "f").write_text("data")
    os.symlink(root / "f", root / "link")
    os.link(root / "f", root / "hard")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "g").write_text("data")
    os.symlink(outside, root / "dirlink")
    r = run(root)
    assert r.stdout == b"f\nhard\n"


def test_link_mode(tmp_path):
    root = build(tmp_path, 42)
    before = {}
    for dp, _, fns in os.walk(root):
        for fn in fns:
            p = os.path.join(dp, fn)
            before[p] = open(p, "rb").read()
    groups = expected(root)
    r = run("--link", root)
    assert r.returncode == 0 and r.stdout == b""
    for p, data in before.items():
        assert open(p, "rb").read() == data
    for g in groups.split(b"\n\n"):
        paths = [x for x in g.split(b"\n") if x]
        inodes = {os.stat(os.path.join(bytes(root), x)).st_ino for x in paths}
        assert len(inodes) == 1, paths
    assert run(root).stdout == groups


def test_usage(tmp_path):
    assert run().returncode == 2
    assert run(tmp_path / "missing").returncode == 2
    (tmp_path / "file").write_text("x")
    assert run(tmp_path / "file").returncode == 2
    assert run("--bogus", tmp_path).returncode == 2
    assert run(tmp_path).returncode == 0


def test_no_other_interpreters():
    src = open("/app/dupfind.sh").read()
    for bad in ("python", "perl", "ruby", "node "):
        assert bad not in src
