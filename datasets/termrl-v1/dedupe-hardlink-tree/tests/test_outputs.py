import hashlib
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from gen_tree import build  # noqa: E402

SCRIPT = "/app/dedupe.py"


def snapshot(root):
    """path -> (kind, sha, mode, size, ino) for everything under root."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + dirnames:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p), None, None, None)
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", None, None, None, None)
            else:
                sha = hashlib.sha256(Path(p).read_bytes()).hexdigest()
                out[rel] = ("file", sha, stat.S_IMODE(st.st_mode), st.st_size, st.st_ino)
    return out


def check_dedupe(before, after):
    assert set(before) == set(after), "paths were added or removed"
    groups = {}
    for rel, b in before.items():
        a = after[rel]
        assert a[0] == b[0], f"{rel} changed type"
        if b[0] == "link":
            assert a[1] == b[1], f"symlink {rel} changed"
        if b[0] != "file":
            continue
        assert a[1] == b[1], f"{rel} content changed"
        assert a[2] == b[2], f"{rel} mode changed"
        groups.setdefault((b[1], b[2], b[3]), []).append(rel)
    inode_owner = {}
    for key, rels in groups.items():
        sha, mode, size = key
        inodes = {after[r][4] for r in rels}
        if size == 0:
            assert len(inodes) == len(rels), f"empty files were linked: {rels}"
        else:
            assert len(inodes) == 1, f"group not merged into one inode: {rels}"
        for ino in inodes:
            assert inode_owner.setdefault(ino, key) == key, "files of different groups share an inode"


def run(root):
    r = subprocess.run([sys.executable, SCRIPT, str(root)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("saved "), r.stdout
    return int(lines[0].split()[1])


def expected_saved(snap):
    groups = {}
    for rel, v in snap.items():
        if v[0] == "file" and v[3] > 0:
            groups.setdefault((v[1], v[2], v[3]), set()).add(v[4])
    return sum((len(inos) - 1) * key[2] for key, inos in groups.items())


def test_data_tree_deduplicated(tmp_path):
    ref = tmp_path / "ref"
    build(str(ref), 1337)
    check_dedupe(snapshot(ref), snapshot("/data"))


def test_data_tree_was_actually_shrunk():
    snap = snapshot("/data")
    files = [v for v in snap.values() if v[0] == "file" and v[3] > 0]
    assert len({v[4] for v in files}) < len(files) - 10


def test_fresh_tree_and_saved_count(tmp_path):
    root = tmp_path / "t"
    build(str(root), 4242)
    before = snapshot(root)
    want = expected_saved(before)
    assert want > 0
    got = run(root)
    check_dedupe(before, snapshot(root))
    assert got == want


def test_mode_mismatch_kept_apart(tmp_path):
    root = tmp_path / "m"
    root.mkdir()
    data = b"same bytes\n" * 40
    for name, mode in [("a", 0o644), ("b", 0o600), ("c", 0o644), ("d", 0o600), ("e", 0o755)]:
        (root / name).write_bytes(data)
        os.chmod(root / name, mode)
    got = run(root)
    ino = {n: os.lstat(root / n).st_ino for n in "abcde"}
    assert ino["a"] == ino["c"] and ino["b"] == ino["d"]
    assert len({ino["a"], ino["b"], ino["e"]}) == 3
    assert got == 2 * len(data)


def test_prelinked_and_idempotent(tmp_path):
    root = tmp_path / "p"
    (root / "x" / "y").mkdir(parents=True)
    data = os.urandom(1000)
    (root / "one").write_bytes(data)
    os.link(root / "one", root / "x" / "two")
    (root / "x" / "y" / "three").write_bytes(data)
    (root / "x" / "four").write_bytes(data)
    os.link(root / "x" / "four", root / "x" / "y" / "five")
    for p in root.rglob("*"):
        if p.is_file():
            os.chmod(p, 0o644)
    (root / "empty1").write_bytes(b"")
    (root / "empty2").write_bytes(b"")
    os.symlink("one", root / "sl")
    os.symlink("nowhere", root / "dangling")
    # three inodes with the same content: two of them are freed
    assert run(root) == 2000
    inos = {os.lstat(root / p).st_ino for p in ["one", "x/two", "x/y/three", "x/four", "x/y/five"]}
    assert len(inos) == 1
    assert os.lstat(root / "empty1").st_ino != os.lstat(root / "empty2").st_ino
    assert os.path.islink(root / "sl") and os.readlink(root / "sl") == "one"
    assert os.path.islink(root / "dangling")
    before = snapshot(root)
    assert run(root) == 0
    assert snapshot(root) == before


def test_data_second_run_is_noop():
    before = snapshot("/data")
    assert run("/data") == 0
    assert snapshot("/data") == before
