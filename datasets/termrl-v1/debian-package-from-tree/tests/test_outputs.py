"""/app/build-deb.sh: the .deb it builds for versions chosen here, read with dpkg-deb, then installed,
upgraded, removed and purged with dpkg on this system."""
import gzip
import hashlib
import os
import pwd
import grp
import random
import re
import subprocess
import time

import pytest

SRC = "/app/tallyd-src"
RNG = random.Random(os.urandom(8))
A, B, C = RNG.randint(1, 5), RNG.randint(0, 30), RNG.randint(1, 9)
V1 = f"{A}.{B}.{C}-{RNG.randint(1, 4)}"
V2 = f"{A}.{B + 1}.0-1"


# tallyd runs as on a normal host, where Python writes bytecode next to its modules
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=300, env=ENV, **kw)


def build(version, out):
    r = sh(f"/app/build-deb.sh {version} {out}")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    deb = f"{out}/tallyd_{version}_all.deb"
    assert os.path.isfile(deb), os.listdir(out)
    return deb


@pytest.fixture(scope="module")
def debs(tmp_path_factory):
    d = tmp_path_factory.mktemp("debs")
    return build(V1, d / "v1"), build(V2, d / "v2"), d


def field(deb, name):
    r = sh(f"dpkg-deb -f {deb} {name}")
    assert r.returncode == 0, r.stderr
    return r.stdout.rstrip("\n")


def ctrl_file(deb, tmp, name):
    d = tmp / "ctrl"
    if not d.exists():
        assert sh(f"dpkg-deb -e {deb} {d}").returncode == 0
    p = d / name
    return p


def expected_description():
    lines = open(f"{SRC}/DESCRIPTION").read().rstrip("\n").split("\n")
    return "\n".join([lines[0]] + [" ." if not ln.strip() else " " + ln for ln in lines[1:]])


FILES = {"./etc/tallyd/tallyd.conf": "-rw-r--r--", "./usr/bin/tallyd": "-rwxr-xr-x",
         "./usr/lib/tallyd/VERSION": "-rw-r--r--", "./usr/lib/tallyd/core.py": "-rw-r--r--",
         "./usr/share/doc/tallyd/copyright": "-rw-r--r--", "./usr/share/man/man1/tallyd.1.gz": "-rw-r--r--"}
DIRS = ["./", "./etc/", "./etc/tallyd/", "./usr/", "./usr/bin/", "./usr/lib/", "./usr/lib/tallyd/", "./usr/share/",
        "./usr/share/doc/", "./usr/share/doc/tallyd/", "./usr/share/man/", "./usr/share/man/man1/"]


def test_control_fields(debs):
    deb = debs[0]
    assert field(deb, "Package") == "tallyd"
    assert field(deb, "Version") == V1
    assert field(deb, "Architecture") == "all"
    assert field(deb, "Maintainer") == "Tally Team <tally@example.com>"
    assert re.sub(r"\s+", "", field(deb, "Depends")) == "python3(>=3.9)"
    assert field(deb, "Section") == "utils" and field(deb, "Priority") == "optional"
    assert field(deb, "Description") == expected_description()


def test_data_contents(debs, tmp_path):
    deb = debs[0]
    r = sh(f"dpkg-deb -c {deb}")
    assert r.returncode == 0, r.stderr
    seen = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        seen[parts[-1]] = (parts[0], parts[1])
    assert sorted(seen) == sorted(list(FILES) + DIRS)
    for p, (mode, owner) in seen.items():
        assert owner == "root/root", f"{p} owned by {owner}"
        assert mode == (FILES[p] if p in FILES else "drwxr-xr-x"), f"{p}: {mode}"
    x = tmp_path / "x"
    assert sh(f"dpkg-deb -x {deb} {x}").returncode == 0
    assert (x / "usr/lib/tallyd/VERSION").read_text() == V1.rsplit("-", 1)[0] + "\n"
    gz = (x / "usr/share/man/man1/tallyd.1.gz").read_bytes()
    assert gzip.decompress(gz) == open(f"{SRC}/doc/tallyd.1", "rb").read()
    assert gz[3] & 0x08 == 0 and gz[4:8] == b"\0\0\0\0", "the man page gzip must carry no name or timestamp"
    for rel, src in (("usr/bin/tallyd", "bin/tallyd"), ("usr/lib/tallyd/core.py", "lib/core.py"),
                     ("etc/tallyd/tallyd.conf", "conf/tallyd.conf"), ("usr/share/doc/tallyd/copyright", "copyright")):
        assert (x / rel).read_bytes() == open(f"{SRC}/{src}", "rb").read()
    size = sum((os.path.getsize(os.path.join(dp, f)) + 1023) // 1024 for dp, _, fs in os.walk(x) for f in fs)
    ndirs = sum(len(dn) for _, dn, _ in os.walk(x))
    assert field(deb, "Installed-Size") == str(size + ndirs)


def test_control_members(debs, tmp_path):
    deb = debs[0]
    conff = ctrl_file(deb, tmp_path, "conffiles")
    assert conff.read_text().split() == ["/etc/tallyd/tallyd.conf"]
    x = tmp_path / "x"
    assert sh(f"dpkg-deb -x {deb} {x}").returncode == 0
    sums = {}
    for line in ctrl_file(deb, tmp_path, "md5sums").read_text().splitlines():
        digest, path = line.split(None, 1)
        sums[path.strip()] = digest
    assert sorted(sums) == sorted(p[2:] for p in FILES)
    for path, digest in sums.items():
        assert hashlib.md5((x / path).read_bytes()).hexdigest() == digest, path
    for script in ("postinst", "postrm"):
        p = ctrl_file(deb, tmp_path, script)
        assert p.is_file() and os.access(p, os.X_OK), script


def test_reproducible(debs, tmp_path):
    later = time.time() + 3600
    for dp, _, fs in os.walk(SRC):
        for f in fs:
            os.utime(os.path.join(dp, f), (later, later))
    again = build(V1, tmp_path / "again")
    assert open(again, "rb").read() == open(debs[0], "rb").read(), "two builds of the same version differ"


def user_exists(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def test_install_upgrade_remove_purge(debs, tmp_path):
    deb1, deb2, _ = debs
    r = sh(f"dpkg -i {deb1}")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    try:
        u = pwd.getpwnam("tallyd")
        assert u.pw_uid < 1000 and u.pw_dir == "/var/lib/tallyd" and u.pw_shell == "/usr/sbin/nologin"
        assert grp.getgrgid(u.pw_gid).gr_name == "tallyd"
        st = os.stat("/var/lib/tallyd")
        assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (u.pw_uid, u.pw_gid, 0o750)
        assert sh("tallyd --version").stdout == f"tallyd {V1.rsplit('-', 1)[0]}\n"
        words = [RNG.choice(["apple", "pear", "the", "fig", "an"]) for _ in range(60)]
        (tmp_path / "t.txt").write_text(" ".join(words))
        r = sh(f"tallyd {tmp_path}/t.txt")
        assert r.returncode == 0, r.stderr
        cnt = {w: words.count(w) for w in set(words) if w not in ("the", "an")}
        top = sorted(cnt.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        assert r.stdout == "".join(f"{n} {w}\n" for w, n in top)
        with open("/etc/tallyd/tallyd.conf", "a") as f:
            f.write("top = 1\n")
        r = sh(f"dpkg -i --force-confold {deb2}")
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        assert sh("dpkg-query -W -f '${Version}' tallyd").stdout == V2
        assert "top = 1" in open("/etc/tallyd/tallyd.conf").read(), "a changed conffile must survive upgrades"
        assert sh("tallyd --version").stdout == f"tallyd {V2.rsplit('-', 1)[0]}\n"
        assert len(sh(f"tallyd {tmp_path}/t.txt").stdout.splitlines()) == 1
        assert os.path.isdir("/usr/lib/tallyd/__pycache__")
        r = sh("dpkg -r tallyd")
        assert r.returncode == 0, r.stderr
        assert not os.path.exists("/usr/bin/tallyd") and os.path.exists("/etc/tallyd/tallyd.conf")
        assert user_exists("tallyd") and os.path.isdir("/var/lib/tallyd")
        r = sh("dpkg -P tallyd")
        assert r.returncode == 0, r.stderr
        for p in ("/etc/tallyd", "/var/lib/tallyd", "/usr/lib/tallyd", "/usr/share/doc/tallyd"):
            assert not os.path.exists(p), f"{p} left behind after purge"
        assert not user_exists("tallyd")
        try:
            grp.getgrnam("tallyd")
            raise AssertionError("group tallyd left behind after purge")
        except KeyError:
            pass
    finally:
        sh("dpkg -P tallyd")


def test_reinstall_is_idempotent(debs):
    deb1 = debs[0]
    try:
        for _ in range(2):
            r = sh(f"dpkg -i {deb1}")
            assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        assert user_exists("tallyd")
    finally:
        sh("dpkg -P tallyd")
