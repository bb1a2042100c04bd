"""The server is started here on a tree and accounts generated here; clients are ftplib and raw sockets."""
import ftplib
import io
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

RNG = random.Random(959)
ROOT = Path(tempfile.mkdtemp(prefix="ftproot"))
OUTSIDE = Path(tempfile.mkdtemp(prefix="outside"))
USERS = {"wr" + str(RNG.randrange(1000)): {"password": "pw-" + str(RNG.randrange(10**6)), "home": "homes/w", "write": True},
         "ro" + str(RNG.randrange(1000)): {"password": "Ro:" + str(RNG.randrange(10**6)), "home": "pub", "write": False}}
WR, RO = list(USERS)
FILES = {}


def build_tree():
    for rel, size in (("homes/w/a.bin", 70000), ("homes/w/docs/readme.txt", 120), ("homes/w/docs/deep/x.dat", 5),
                      ("homes/w/empty.txt", 0), ("pub/report.csv", 3000), ("pub/2026/q1.csv", 10)):
        p = ROOT / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        data = bytes(RNG.randrange(256) for _ in range(size))
        p.write_bytes(data)
        FILES[rel] = data
    (ROOT / "homes/w/emptydir").mkdir()
    (OUTSIDE / "secret.txt").write_bytes(b"top secret")
    (ROOT / "homes/w/escape").symlink_to(OUTSIDE)              # a link to a directory outside the home
    (ROOT / "homes/w/peek.txt").symlink_to(OUTSIDE / "secret.txt")
    (ROOT / "homes/w/inside").symlink_to(ROOT / "homes/w/docs")  # a link that stays inside is fine
    (ROOT / "homes/other.txt").write_bytes(b"a neighbour's file")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def port():
    build_tree()
    users = ROOT.parent / (ROOT.name + "-users.json")
    users.write_text(json.dumps(USERS))
    port = free_port()
    proc = subprocess.Popen(["bash", "/app/ftpd/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, FTP_PORT=str(port), FTP_ROOT=str(ROOT), FTP_USERS=str(users)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 30
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield port if ok else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def login(port, user=WR):
    assert port, "the server did not start listening"
    f = ftplib.FTP()
    f.connect("127.0.0.1", port, timeout=30)
    f.login(user, USERS[user]["password"])
    return f


def get(f, path):
    buf = io.BytesIO()
    f.retrbinary(f"RETR {path}", buf.write)
    return buf.getvalue()


def code(f, cmd):
    try:
        return int(f.sendcmd(cmd)[:3])
    except ftplib.all_errors as e:
        return int(str(e)[:3])


def test_login_and_session_commands(port):
    assert port, "the server did not start listening"
    f = ftplib.FTP()
    f.connect("127.0.0.1", port, timeout=30)
    assert f.getwelcome().startswith("220")
    assert code(f, "PWD") == 530
    with pytest.raises(ftplib.error_perm, match="^530"):
        f.login(WR, "wrong")
    assert f.login(WR, USERS[WR]["password"]).startswith("230")
    assert f.sendcmd("SYST") == "215 UNIX Type: L8"
    assert code(f, "NOOP") == 200 and code(f, "TYPE I") == 200 and code(f, "TYPE A") == 200
    assert code(f, "PORT 127,0,0,1,4,1") == 502 and code(f, "XYZZY") == 502
    assert code(f, "RETR a.bin") == 425, "a transfer needs PASV or EPSV first"
    assert f.quit().startswith("221")


def test_navigation_stays_in_home(port):
    f = login(port)
    assert f.pwd() == "/"
    f.cwd("docs/deep")
    assert f.pwd() == "/docs/deep"
    f.cwd("../../docs/./deep/..")
    assert f.pwd() == "/docs"
    f.sendcmd("CDUP")
    f.sendcmd("CDUP")
    assert f.pwd() == "/"
    f.cwd("../../../..")
    assert f.pwd() == "/", "'..' at / stays at /"
    for bad in ("nosuch", "a.bin", "escape", "/../pub", "../../pub"):
        assert code(f, f"CWD {bad}") == 550, bad
    f.cwd("inside")
    assert f.pwd() == "/inside" and f.nlst() == sorted(["readme.txt", "deep"])
    f.quit()


def test_retr_and_size(port):
    f = login(port)
    assert get(f, "a.bin") == FILES["homes/w/a.bin"]
    f.cwd("/docs")
    assert get(f, "readme.txt") == FILES["homes/w/docs/readme.txt"]
    assert get(f, "/docs/deep/x.dat") == FILES["homes/w/docs/deep/x.dat"]
    assert get(f, "../empty.txt") == b""
    assert f.size("/a.bin") == 70000 and f.size("deep/x.dat") == 5
    for bad in ("/../other.txt", "../../homes/other.txt", "/peek.txt", "/escape/secret.txt", "nosuch"):
        with pytest.raises(ftplib.error_perm, match="^550"):
            get(f, bad)
        assert code(f, f"SIZE {bad}") == 550, bad
    f.quit()
    g = login(port)
    resp = g.sendcmd("EPSV")
    assert resp.startswith("229") and "(|||" in resp
    dport = int(resp.split("(|||")[1].split("|")[0])
    data = socket.create_connection(("127.0.0.1", dport), timeout=30)
    assert g.sendcmd("RETR /docs/readme.txt").startswith("150")
    got = b""
    while chunk := data.recv(65536):
        got += chunk
    data.close()
    assert got == FILES["homes/w/docs/readme.txt"]
    assert g.voidresp().startswith("226")
    g.quit()


def test_listings(port):
    f = login(port)
    assert f.nlst() == sorted(["a.bin", "docs", "empty.txt", "emptydir", "inside"]), "links leading out do not exist"
    assert f.nlst("docs") == ["deep", "readme.txt"]
    assert f.nlst("/emptydir") == []
    lines = []
    f.retrlines("LIST /docs", lines.append)
    assert [l.split()[-1] for l in lines] == ["deep", "readme.txt"]
    assert lines[0][0] == "d" and lines[1][0] == "-" and lines[1].split()[4] == "120"
    with pytest.raises(ftplib.error_perm, match="^550"):
        f.nlst("/escape")
    f.quit()


def test_store_mkd_rmd_dele(port):
    f = login(port)
    blob = os.urandom(RNG.randrange(200000, 400000))
    f.storbinary("STOR up.bin", io.BytesIO(blob))
    assert (ROOT / "homes/w/up.bin").read_bytes() == blob and get(f, "/up.bin") == blob
    f.storbinary("STOR up.bin", io.BytesIO(b"smaller"))
    assert (ROOT / "homes/w/up.bin").read_bytes() == b"smaller"
    assert f.sendcmd("MKD new").startswith('257 "/new"')
    assert (ROOT / "homes/w/new").is_dir()
    f.storbinary("STOR new/inner.txt", io.BytesIO(b"x"))
    assert code(f, "RMD new") == 550, "not empty"
    assert code(f, "DELE new/inner.txt") == 250 and code(f, "RMD /new") == 250
    assert not (ROOT / "homes/w/new").exists()
    assert code(f, "DELE nosuch") == 550 and code(f, "MKD docs") == 550
    with pytest.raises(ftplib.error_perm, match="^550"):
        f.storbinary("STOR /escape/planted.txt", io.BytesIO(b"evil"))
    assert not (OUTSIDE / "planted.txt").exists()
    with pytest.raises(ftplib.error_perm, match="^550"):
        f.storbinary("STOR nodir/x.txt", io.BytesIO(b"x"))
    f.quit()


def test_read_only_account(port):
    f = login(port, RO)
    assert f.nlst() == ["2026", "report.csv"]
    assert get(f, "report.csv") == FILES["pub/report.csv"]
    with pytest.raises(ftplib.error_perm, match="^550"):
        f.storbinary("STOR new.csv", io.BytesIO(b"x"))
    for cmd in ("DELE report.csv", "MKD made", "RMD 2026", "DELE 2026/q1.csv"):
        assert code(f, cmd) == 550, cmd
    assert sorted(p.name for p in (ROOT / "pub").rglob("*")) == ["2026", "q1.csv", "report.csv"]
    f.quit()


def test_concurrent_sessions(port):
    a, b = login(port), login(port, RO)
    a.cwd("docs")
    b.cwd("2026")
    assert a.pwd() == "/docs" and b.pwd() == "/2026", "each session has its own directory"
    assert get(b, "q1.csv") == FILES["pub/2026/q1.csv"] and get(a, "readme.txt") == FILES["homes/w/docs/readme.txt"]
    a.quit(), b.quit()
