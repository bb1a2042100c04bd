import hashlib
import os
import shutil
import subprocess
import tarfile

import pytest


def build(dest, umask, env_extra, faketime_days=0):
    shutil.copytree("/app", dest, ignore=shutil.ignore_patterns("build", "dist", "keywords.h"))
    env = dict(os.environ, **env_extra)
    cmd = f"umask {umask} && make clean >/dev/null && make dist"
    r = subprocess.run(["bash", "-c", cmd], cwd=dest, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return dest


def sha(p):
    return hashlib.sha256(open(p, "rb").read()).hexdigest()


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    base = tmp_path_factory.mktemp("repro")
    a = build(base / "a" / "kw", "022", {"TZ": "America/New_York", "PYTHONHASHSEED": "1", "LC_ALL": "C"})
    b = build(base / "longer" / "path" / "to" / "kwcount-src", "077",
              {"TZ": "Asia/Tokyo", "PYTHONHASHSEED": "4242", "LANG": "C.UTF-8"})
    return a, b


def test_binary_identical(builds):
    a, b = builds
    assert sha(a / "build/kwcount") == sha(b / "build/kwcount")


def test_tarball_identical(builds):
    a, b = builds
    assert sha(a / "dist/kwcount-1.0.tar.gz") == sha(b / "dist/kwcount-1.0.tar.gz")


def test_version_from_source_date_epoch(builds, tmp_path):
    a, _ = builds
    r = subprocess.run([str(a / "build/kwcount"), "--version"], capture_output=True, text=True)
    assert r.stdout == "kwcount 1.0 (built Nov 14 2023 22:13:20)\n"
    c = tmp_path / "c"
    shutil.copytree("/app", c, ignore=shutil.ignore_patterns("build", "dist", "keywords.h"))
    (c / "SOURCE_DATE_EPOCH").write_text("1000000000\n")
    r = subprocess.run(["bash", "-c", "make clean >/dev/null && make"], cwd=c, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(c / "build/kwcount"), "--version"], capture_output=True, text=True)
    assert r.stdout == "kwcount 1.0 (built Sep  9 2001 01:46:40)\n"


def test_tarball_metadata(builds):
    a, _ = builds
    with tarfile.open(a / "dist/kwcount-1.0.tar.gz") as tf:
        ms = tf.getmembers()
        assert [m.name for m in ms] == ["kwcount-1.0", "kwcount-1.0/README", "kwcount-1.0/keywords.txt",
                                        "kwcount-1.0/kwcount"]
        for m in ms:
            assert m.mtime == 1700000000, m.name
            assert (m.uid, m.gid, m.uname, m.gname) == (0, 0, "root", "root"), m.name
        modes = {m.name: m.mode & 0o7777 for m in ms}
        assert modes == {"kwcount-1.0": 0o755, "kwcount-1.0/README": 0o644, "kwcount-1.0/keywords.txt": 0o644,
                         "kwcount-1.0/kwcount": 0o755}
        assert tf.extractfile("kwcount-1.0/kwcount").read() == open(a / "build/kwcount", "rb").read()


def test_debug_info_and_behaviour(builds):
    a, _ = builds
    r = subprocess.run(["readelf", "-S", str(a / "build/kwcount")], capture_output=True, text=True)
    assert ".debug_info" in r.stdout
    strings = open(a / "build/kwcount", "rb").read()
    assert str(a).encode() not in strings
    src = "int main(void) { for (;;) { if (x) break; else continue; } while (1) return 0; return sizeof(int); }"
    r = subprocess.run([str(a / "build/kwcount")], input=src, capture_output=True, text=True)
    assert r.stdout == "break 1\ncontinue 1\nelse 1\nfor 1\nif 1\nreturn 2\nsizeof 1\nwhile 1\n"
    hdr = open(a / "src/keywords.h").read()
    words = [l.strip().strip('",') for l in hdr.splitlines() if l.startswith('    "')]
    assert words == sorted(words) and len(words) == 16


def test_clean(builds):
    a, _ = builds
    r = subprocess.run(["make", "clean"], cwd=a, capture_output=True, text=True)
    assert r.returncode == 0
    assert not (a / "build").exists() and not (a / "dist").exists() and not (a / "src/keywords.h").exists()
