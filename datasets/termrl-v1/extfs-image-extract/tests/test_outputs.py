import hashlib
import os
import stat
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import mktree  # noqa: E402


def scan(root):
    out, inodes = {}, {}
    for dp, dns, fns in os.walk(root):
        for n in dns + fns:
            p = os.path.join(dp, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", stat.S_IMODE(st.st_mode))
            else:
                data = open(p, "rb").read()
                out[rel] = ("file", stat.S_IMODE(st.st_mode), int(st.st_mtime), len(data),
                            hashlib.sha256(data).hexdigest())
                inodes.setdefault(st.st_ino, []).append(rel)
    groups = sorted(sorted(v) for v in inodes.values() if len(v) > 1)
    return out, groups


def extract(image, dest):
    before = hashlib.sha256(open(image, "rb").read()).hexdigest()
    r = subprocess.run([sys.executable, "/app/extfs_extract.py", str(image), str(dest)], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert hashlib.sha256(open(image, "rb").read()).hexdigest() == before, "the image was modified"


def compare(src, dest):
    want, want_groups = scan(src)
    got, got_groups = scan(dest)
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    assert not missing and not extra, f"missing {missing[:5]}, unexpected {extra[:5]}"
    wrong = [k for k in want if want[k] != got[k]]
    assert not wrong, f"differs: {[(k, want[k], got[k]) for k in wrong[:3]]}"
    assert got_groups == want_groups, "hard links not preserved"


def test_shipped_image_extracted(tmp_path):
    mktree.make(str(tmp_path / "src"), 4242)
    compare(tmp_path / "src", "/srv/extracted")


MKFS = {
    "ext2-1k": ["-t", "ext2", "-b", "1024"],
    "ext3-2k": ["-t", "ext3", "-b", "2048"],
    "ext4-4k-groups": ["-t", "ext4", "-b", "4096", "-g", "1024", "-N", "300"],
    "ext4-1k-32bit": ["-t", "ext4", "-b", "1024", "-O", "^64bit"],
    "ext2-4k-groups": ["-t", "ext2", "-b", "4096", "-g", "2048", "-N", "300"],
}


@pytest.mark.parametrize("kind,seed", [("ext2-1k", 11), ("ext3-2k", 12), ("ext4-4k-groups", 13),
                                       ("ext4-1k-32bit", 14), ("ext2-4k-groups", 15)])
def test_hidden_images(tmp_path, kind, seed):
    src = tmp_path / "src"
    mktree.make(str(src), seed)
    img = tmp_path / "fs.img"
    subprocess.run(["mke2fs", "-q", *MKFS[kind], "-d", str(src), str(img), "40M"], check=True,
                   capture_output=True)
    extract(img, tmp_path / "out")
    compare(src, tmp_path / "out")


def test_lost_and_found_skipped_and_sparse_file(tmp_path):
    src = tmp_path / "src"
    mktree.make(str(src), 21)
    img = tmp_path / "fs.img"
    subprocess.run(["mke2fs", "-q", "-t", "ext4", "-d", str(src), str(img), "32M"], check=True, capture_output=True)
    extract(img, tmp_path / "out")
    assert not (tmp_path / "out" / "lost+found").exists()
    assert (tmp_path / "out/data/sparse.img").read_bytes() == (src / "data/sparse.img").read_bytes()
    assert os.readlink(tmp_path / "out/docs/slow-link") == os.readlink(src / "docs/slow-link")
