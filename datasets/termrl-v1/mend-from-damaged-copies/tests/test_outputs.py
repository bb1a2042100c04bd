import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, "/tests")
import mendgen  # noqa: E402  (the damage generator, only available to the tests)


def mend(side, out, copies):
    return subprocess.run([sys.executable, "/app/mend.py", str(side), str(out)] + [str(c) for c in copies],
                          capture_output=True, text=True, timeout=600)


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def test_shipped_image_rebuilt(tmp_path):
    data, _ = mendgen.make(str(tmp_path), 4242, 393001, 1024)
    assert Path("/data/image.img").read_bytes() == data


@pytest.mark.parametrize("seed,size,bs", [(11, 300007, 512), (12, 524288, 4096), (13, 150000, 2048)])
def test_hidden_three_copies(tmp_path, seed, size, bs):
    data, copies = mendgen.make(str(tmp_path), seed, size, bs)
    before = [digest(c) for c in copies + [tmp_path / "image.bsum"]]
    r = mend(tmp_path / "image.bsum", tmp_path / "out.img", copies)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out.img").read_bytes() == data
    assert [digest(c) for c in copies + [tmp_path / "image.bsum"]] == before, "inputs were modified"


def test_hidden_two_copies(tmp_path):
    data, copies = mendgen.make(str(tmp_path), 21, 200003, 1024, ncopies=2)
    r = mend(tmp_path / "image.bsum", tmp_path / "out.img", copies)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out.img").read_bytes() == data


def test_hidden_four_copies_any_order(tmp_path):
    data, copies = mendgen.make(str(tmp_path), 31, 333333, 768, ncopies=4)
    r = mend(tmp_path / "image.bsum", tmp_path / "out.img", copies[::-1])
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out.img").read_bytes() == data


def test_unrecoverable_block(tmp_path):
    data, copies = mendgen.make(str(tmp_path), 41, 120000, 1024, unrecoverable=True)
    r = mend(tmp_path / "image.bsum", tmp_path / "out.img", copies)
    assert r.returncode == 1
    assert not (tmp_path / "out.img").exists()
    ok = mend(tmp_path / "image.bsum", tmp_path / "whole.img", copies[:1])
    assert ok.returncode == 1 and not (tmp_path / "whole.img").exists()
