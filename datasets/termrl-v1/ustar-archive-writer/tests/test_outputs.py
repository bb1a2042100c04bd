import os
import subprocess
import tarfile

import pytest


def mktar(cwd, out, *paths):
    return subprocess.run(["python3", "/app/mktar.py", str(out), *paths], cwd=cwd, capture_output=True, text=True,
                          timeout=60)


@pytest.fixture()
def tree(tmp_path):
    src = tmp_path / "src"
    root = src / "proj"
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / "empty").mkdir()
    (root / "a.txt").write_text("alpha\n")
    (root / "B.bin").write_bytes(bytes(range(256)) * 5)
    (root / "sub" / "zero").write_bytes(b"")
    (root / "sub" / "exact512").write_bytes(b"x" * 512)
    (root / "sub" / "deeper" / "ünï code.txt").write_text("unicode name\n")
    (root / "sub" / "Zeta").write_text("z")
    (root / "sub" / "_under").write_text("u")
    os.symlink("../a.txt", root / "sub" / "link")
    os.symlink("/nonexistent/target", root / "dangling")
    os.chmod(root / "a.txt", 0o640)
    os.chmod(root / "sub" / "Zeta", 0o755)
    os.chmod(root / "empty", 0o700)
    for p in [root / "a.txt", root / "B.bin"]:
        os.utime(p, (1600000000, 1600000000))
    os.utime(root / "sub" / "Zeta", (1234567890, 1234567890))
    (src / "top.txt").write_text("top level\n")
    return src


def walk_expected(src, paths):
    out = []

    def rec(p):
        full = src / p
        if os.path.islink(full):
            out.append(p)
        elif full.is_dir():
            out.append(p + "/")
            for c in sorted(os.listdir(full), key=os.fsencode):
                rec(p + "/" + c)
        else:
            out.append(p)
    for p in paths:
        rec(p)
    return out


def test_archive_structure(tree, tmp_path):
    out = tmp_path / "o.tar"
    r = mktar(tree, out, "proj", "top.txt")
    assert r.returncode == 0, r.stderr
    data = out.read_bytes()
    assert len(data) % 10240 == 0
    with tarfile.open(out) as tf:
        members = tf.getmembers()
        names = [m.name + ("/" if m.isdir() else "") for m in members]
        assert names == walk_expected(tree, ["proj", "top.txt"])
        for m in members:
            assert tf.fileobj is not None
        hdr = data[:512]
        assert hdr[257:263] == b"ustar\0" and hdr[263:265] == b"00"


def test_gnu_tar_extract_roundtrip(tree, tmp_path):
    out = tmp_path / "o.tar"
    assert mktar(tree, out, "proj").returncode == 0
    dest = tmp_path / "x"
    dest.mkdir()
    r = subprocess.run(["tar", "-xf", str(out), "-C", str(dest)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for dp, dns, fns in os.walk(tree / "proj"):
        rel = os.path.relpath(dp, tree)
        for n in fns + dns:
            a, b = os.path.join(dp, n), dest / rel / n
            sa, sb = os.lstat(a), os.lstat(b)
            assert stat_type(sa) == stat_type(sb), n
            if os.path.islink(a):
                assert os.readlink(a) == os.readlink(b)
            elif os.path.isfile(a):
                assert open(a, "rb").read() == open(b, "rb").read()
                assert int(sa.st_mtime) == int(sb.st_mtime), n
            if not os.path.islink(a):
                assert (sa.st_mode & 0o7777) == (sb.st_mode & 0o7777), n


def stat_type(st):
    import stat as S
    return S.S_IFMT(st.st_mode)


def test_tarfile_metadata(tree, tmp_path):
    out = tmp_path / "o.tar"
    assert mktar(tree, out, "proj/sub", "proj/a.txt").returncode == 0
    with tarfile.open(out) as tf:
        m = tf.getmember("proj/a.txt")
        assert m.mode == 0o640 and m.mtime == 1600000000 and m.size == 6 and m.isreg()
        z = tf.getmember("proj/sub/Zeta")
        assert z.mode == 0o755 and z.mtime == 1234567890
        ln = tf.getmember("proj/sub/link")
        assert ln.issym() and ln.linkname == "../a.txt" and ln.size == 0
        assert tf.extractfile("proj/sub/exact512").read() == b"x" * 512
        assert tf.getmember("proj/sub").isdir()
    listing = subprocess.run(["tar", "-tf", str(out)], capture_output=True, text=True).stdout.splitlines()
    assert listing[0] == "proj/sub/" and listing[-1] == "proj/a.txt"


def test_long_paths_prefix(tmp_path):
    base = tmp_path / "w"
    deep = "d" * 60 + "/" + "e" * 60 + "/" + "f" * 30
    (base / deep).mkdir(parents=True)
    fname = "n" * 95
    (base / deep / fname).write_text("long\n")
    out = tmp_path / "l.tar"
    r = mktar(base, out, "d" * 60)
    assert r.returncode == 0, r.stderr
    with tarfile.open(out) as tf:
        names = tf.getnames()
    assert f"{deep}/{fname}" in names
    raw = out.read_bytes()
    assert b"d" * 60 in raw and b"\0" * 0 == b""
    dest = tmp_path / "xx"
    dest.mkdir()
    assert subprocess.run(["tar", "-xf", str(out), "-C", str(dest)]).returncode == 0
    assert (dest / deep / fname).read_text() == "long\n"


def test_unsplittable_path_fails(tmp_path):
    base = tmp_path / "w"
    name = "q" * 120
    base.mkdir()
    (base / name).write_text("x")
    out = tmp_path / "bad.tar"
    r = mktar(base, out, name)
    assert r.returncode == 1
    assert not out.exists()
    r = mktar(base, out, "does-not-exist")
    assert r.returncode == 1 and not out.exists()


def test_checksums_valid(tree, tmp_path):
    out = tmp_path / "o.tar"
    assert mktar(tree, out, "proj").returncode == 0
    data = out.read_bytes()
    off, seen = 0, 0
    while off < len(data):
        h = data[off:off + 512]
        if h == b"\0" * 512:
            break
        stored = int(h[148:154].decode(), 8)
        assert h[154:156] == b"\0 "
        calc = sum(h[:148]) + 8 * 32 + sum(h[156:])
        assert stored == calc
        size = int(h[124:135].decode(), 8)
        assert h[135] == 0
        off += 512 + (size + 511) // 512 * 512
        seen += 1
    assert seen == len(walk_expected(tree, ["proj"]))
