import json
import os
import subprocess
from pathlib import Path

import pytest


def run(d):
    r = subprocess.run(["/app/usage_report", str(d)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def blocks_kib(*paths):
    return sum(os.lstat(p).st_blocks * 512 // 1024 for p in paths)


def test_saved_share_report():
    rep = json.loads(Path("/app/share_usage.json").read_text())
    S = "/srv/share"
    assert rep["owners"] == {
        "ana": {"files": 2, "bytes": 420000, "kib_on_disk": blocks_kib(f"{S}/ana/photos/p1.raw", f"{S}/ana/photos/p2.raw")},
        "raj": {"files": 2, "bytes": 52428800 + 70000, "kib_on_disk": blocks_kib(f"{S}/raj/vm/disk.img", f"{S}/raj/notes.bin")},
        "root": {"files": 1, "bytes": 14, "kib_on_disk": blocks_kib(f"{S}/common/README")},
    }
    assert rep["top_dirs"] == [["raj", 52498800], ["ana", 420000], ["common", 14]]


@pytest.fixture
def tree(tmp_path):
    d = tmp_path / "t"
    for sub in ["b", "a/x", "c", "d"]:
        (d / sub).mkdir(parents=True)
    (d / "a/x/f1").write_bytes(b"1" * 10000)
    os.link(d / "a/x/f1", d / "c/f1-hard")
    (d / "b/sparse").write_bytes(b"")
    with open(d / "b/sparse", "r+b") as fh:
        fh.seek(20 * 1024 * 1024)
        fh.write(b"end")
    (d / "b/small").write_bytes(b"22")
    (d / "c/own").write_bytes(b"3" * 500)
    (d / "top.txt").write_bytes(b"4" * 7)
    os.symlink(d / "b/sparse", d / "d/link-to-sparse")
    os.chown(d / "a/x/f1", 2001, 2001)
    os.chown(d / "c/own", 4242, 4242)
    os.chown(d / "b/small", 2002, 2002)
    return d


def test_hidden_tree_owners(tree):
    rep = run(tree)
    o = rep["owners"]
    assert set(o) == {"ana", "raj", "4242", "root"}
    assert o["ana"] == {"files": 1, "bytes": 10000, "kib_on_disk": blocks_kib(tree / "a/x/f1")}
    assert o["4242"] == {"files": 1, "bytes": 500, "kib_on_disk": blocks_kib(tree / "c/own")}
    assert o["raj"]["files"] == 1 and o["raj"]["bytes"] == 2
    assert o["root"]["files"] == 2 and o["root"]["bytes"] == 20 * 1024 * 1024 + 3 + 7


def test_sparse_file_on_disk(tree):
    rep = run(tree)
    assert rep["owners"]["root"]["kib_on_disk"] == blocks_kib(tree / "b/sparse", tree / "top.txt")
    assert rep["owners"]["root"]["kib_on_disk"] < 1024


def test_hidden_tree_top_dirs(tree):
    rep = run(tree)
    assert rep["top_dirs"] == [["b", 20 * 1024 * 1024 + 5], ["a", 10000], ["c", 500]]
