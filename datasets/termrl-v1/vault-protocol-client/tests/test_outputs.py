import hashlib
import os
import random
import signal
import socket
import subprocess
import sys
import time

import pytest

CLIENT = "/app/vault_client.py"
RNG = random.Random(90210)
USERS = {"m.okafor": "Nimbus-" + RNG.randbytes(6).hex(), "svc_backup": "pw with spaces & symbols!%" + str(RNG.randrange(10**6))}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def vault(tmp_path_factory):
    base = tmp_path_factory.mktemp("vault")
    os.chmod(base, 0o700)
    root = base / "root"
    root.mkdir(mode=0o700)
    (base / "users").write_text("# vault users\n" + "".join(f"{u}:{p}\n" for u, p in USERS.items()))
    files = {}
    for i in range(37):  # enough names for a listing that spans several frames
        name = f"{RNG.choice(['ledger', 'scan', 'contract', 'img', 'db'])}-{RNG.randrange(10**5):05d}.{RNG.choice(['pdf', 'csv', 'bin'])}"
        size = RNG.choice([RNG.randrange(1, 900), RNG.randrange(900, 5000), RNG.randrange(20000, 90000)])
        files[name] = RNG.randbytes(size)
    files["empty.txt"] = b""
    files["exactly-1000.bin"] = RNG.randbytes(1000)
    files["big-archive.tar"] = RNG.randbytes(333_333)
    for n, d in files.items():
        (root / n).write_bytes(d)
    # the tests run their own build of the daemon, from the same source as the image's binary
    vaultd = str(base / "vaultd")
    subprocess.run(["gcc", "-O2", "-o", vaultd, os.path.join(os.path.dirname(__file__), "vaultd.c")], check=True)
    port = free_port()
    proc = subprocess.Popen([vaultd, "--port", str(port), "--root", str(root), "--users", str(base / "users")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield {"port": port, "root": root, "files": files, "base": base}
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def as_nobody():
    # the client runs unprivileged: it can reach the daemon, not the daemon's files
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


def client_pw(vault, user, pw, *args):
    return subprocess.run([sys.executable, CLIENT, "--port", str(vault["port"]), "--user", user,
                           "--password", pw, *args], capture_output=True, timeout=300, preexec_fn=as_nobody,
                          cwd="/tmp", env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp"})


def client(vault, user, *args):
    return client_pw(vault, user, USERS.get(user, "x"), *args)


@pytest.fixture
def tmp_path(tmp_path):
    d = tmp_path / "io"
    d.mkdir()
    os.chmod(d, 0o777)
    os.chmod(tmp_path, 0o755)
    p = tmp_path
    while str(p) != "/tmp" and p != p.parent:  # let the unprivileged client reach its files
        os.chmod(p, os.stat(p).st_mode | 0o711)
        p = p.parent
    return d


def test_list_matches_the_vault(vault):
    r = client(vault, "m.okafor", "list")
    assert r.returncode == 0, r.stderr.decode()[-1500:]
    names = r.stdout.decode().splitlines()
    assert names == sorted(vault["files"]), "list must print every stored name, in the server's order"


def test_get_small_files(vault, tmp_path):
    small = [n for n, d in vault["files"].items() if 0 < len(d) < 900][:4]
    assert small
    for n in small:
        r = client(vault, "svc_backup", "get", n, str(tmp_path / n))
        assert r.returncode == 0, r.stderr.decode()[-1500:]
        assert (tmp_path / n).read_bytes() == vault["files"][n], n


def test_get_multi_frame_files(vault, tmp_path):
    for n in ["big-archive.tar", "exactly-1000.bin"] + [n for n, d in vault["files"].items() if len(d) > 20000][:2]:
        r = client(vault, "m.okafor", "get", n, str(tmp_path / "out"))
        assert r.returncode == 0, r.stderr.decode()[-1500:]
        got = (tmp_path / "out").read_bytes()
        assert hashlib.sha256(got).digest() == hashlib.sha256(vault["files"][n]).digest(), \
            f"{n}: {len(got)} bytes received, {len(vault['files'][n])} stored"


def test_get_empty_file(vault, tmp_path):
    r = client(vault, "m.okafor", "get", "empty.txt", str(tmp_path / "e"))
    assert r.returncode == 0, r.stderr.decode()[-1500:]
    assert (tmp_path / "e").read_bytes() == b""


def test_wrong_credentials_exit_2(vault, tmp_path):
    assert client(vault, "m.okafor", "list").returncode == 0, "the right password must work"
    assert client_pw(vault, "m.okafor", USERS["m.okafor"] + "x", "list").returncode == 2
    assert client_pw(vault, "m.okafor", USERS["svc_backup"], "list").returncode == 2
    assert client_pw(vault, "nobody", "whatever", "list").returncode == 2
    r = client_pw(vault, "svc_backup", "wrong", "get", "empty.txt", str(tmp_path / "x"))
    assert r.returncode == 2


def test_missing_file_exit_3(vault, tmp_path):
    r = client(vault, "svc_backup", "get", "no-such-file.pdf", str(tmp_path / "x"))
    assert r.returncode == 3, (r.returncode, r.stderr.decode()[-800:])
    r = client(vault, "svc_backup", "get", "../users", str(tmp_path / "x"))
    assert r.returncode == 3


def test_put_stores_files(vault, tmp_path):
    rng = random.Random(777)
    uploads = {"upload-small.txt": b"quarterly numbers\n" * 3, "upload-big.bin": rng.randbytes(150_001),
               "upload-empty": b""}
    for name, data in uploads.items():
        src = tmp_path / ("src-" + name)
        src.write_bytes(data)
        os.chmod(src, 0o644)
        r = client(vault, "svc_backup", "put", str(src), name)
        assert r.returncode == 0, r.stderr.decode()[-1500:]
        assert (vault["root"] / name).read_bytes() == data, name
    r = client(vault, "m.okafor", "list")
    assert set(uploads) <= set(r.stdout.decode().splitlines())
    r = client(vault, "m.okafor", "get", "upload-big.bin", str(tmp_path / "back"))
    assert r.returncode == 0 and (tmp_path / "back").read_bytes() == uploads["upload-big.bin"]


def test_many_sessions_in_a_row(vault, tmp_path):
    # every session gets a fresh challenge; a client that replays or guesses fails some of them
    names = sorted(vault["files"])[:12]
    for i, n in enumerate(names):
        user = "m.okafor" if i % 2 else "svc_backup"
        r = client(vault, user, "get", n, str(tmp_path / "o"))
        assert r.returncode == 0, r.stderr.decode()[-1500:]
        assert (tmp_path / "o").read_bytes() == vault["files"][n]
