"""The server is started here on Maildirs and accounts generated here; clients are poplib and raw sockets."""
import hashlib
import os
import poplib
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

RNG = random.Random(1939)
ROOT = Path(tempfile.mkdtemp(prefix="pop3t"))
MAIL = ROOT / "mail"
ACCOUNTS = {"ana": "p@ss:w0rd!", "bruno": "Zz-" + str(RNG.randrange(10**6)), "chen": "ümlaut-" + str(RNG.randrange(999))}
WORDS = "alpha beta gamma delta report meeting invoice server patch deploy lunch".split()


def gen_message(i):
    headers = [f"From: user{RNG.randrange(99)}@remote.test", f"Subject: {' '.join(RNG.sample(WORDS, 3))}",
               f"Message-ID: <{i}.{RNG.randrange(10**9)}@remote.test>"]
    body = []
    for _ in range(RNG.randrange(0, 12)):
        r = RNG.random()
        body.append("." if r < 0.1 else "." + RNG.choice(WORDS) if r < 0.25 else ".." if r < 0.3 else
                    "" if r < 0.4 else " ".join(RNG.choice(WORDS) for _ in range(RNG.randrange(1, 8))))
    lines = [l.encode() for l in headers + [""] + body]
    eol = RNG.choice([b"\n", b"\r\n"])
    data = eol.join(lines) + (eol if RNG.random() < 0.8 else b"")
    return lines, data


def build_maildrop(user, n):
    """Returns the expected messages (unique name, lines, in new?) in maildrop order."""
    base = MAIL / user
    for d in ("new", "cur", "tmp"):
        (base / d).mkdir(parents=True, exist_ok=True)
    msgs = []
    for i in range(n):
        uid = f"{RNG.randrange(1600000000, 1800000000)}.M{RNG.randrange(10**6)}P{RNG.randrange(9999)}.host{RNG.randrange(3)}"
        lines, data = gen_message(i)
        if RNG.random() < 0.5:
            (base / "new" / uid).write_bytes(data)
            msgs.append((uid, lines, True))
        else:
            (base / "cur" / (uid + RNG.choice([":2,S", ":2,RS", ":2,"]))).write_bytes(data)
            msgs.append((uid, lines, False))
    return sorted(msgs)


def wire(lines):
    return b"".join(l + b"\r\n" for l in lines)


DROPS = {"ana": build_maildrop("ana", 9), "bruno": build_maildrop("bruno", 6), "chen": build_maildrop("chen", 1)}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def port():
    pw = ["# accounts for the tests"]
    for u, p in ACCOUNTS.items():
        salt = os.urandom(RNG.randrange(4, 12)).hex()
        pw.append(f"{u}:{salt}:{hashlib.sha256(bytes.fromhex(salt) + p.encode()).hexdigest()}")
    (ROOT / "passwd").write_text("\n".join(pw) + "\n", encoding="utf-8")
    port = free_port()
    proc = subprocess.Popen(["bash", "/app/pop3d/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, POP3_PORT=str(port), POP3_MAILDIRS=str(MAIL), POP3_PASSWD=str(ROOT / "passwd")),
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


def connect(port):
    assert port, "the server did not start listening"
    return poplib.POP3("127.0.0.1", port, timeout=20)


def login(port, user, retry=False):
    """Log in; with retry, wait (bounded) for a just-closed session to release the maildrop."""
    deadline = time.time() + 20
    while True:
        p = connect(port)
        p.user(user)
        try:
            p.pass_(ACCOUNTS[user])
            return p
        except poplib.error_proto:
            p.close()
            if not retry or time.time() > deadline:
                raise
            time.sleep(0.2)


def snapshot(user):
    return sorted(str(p.relative_to(MAIL / user)) for p in (MAIL / user).rglob("*") if p.is_file())


def test_authorization(port):
    p = connect(port)
    assert p.getwelcome().startswith(b"+OK")
    with pytest.raises(poplib.error_proto):
        p.stat()
    with pytest.raises(poplib.error_proto):
        p.pass_(ACCOUNTS["ana"])  # PASS without USER
    p.user("ana")
    with pytest.raises(poplib.error_proto):
        p.pass_(ACCOUNTS["bruno"])
    p.user("nosuchuser")
    with pytest.raises(poplib.error_proto):
        p.pass_("whatever")
    p.user("chen")
    assert p.pass_(ACCOUNTS["chen"]).startswith(b"+OK")
    assert p.stat()[0] == 1
    with pytest.raises(poplib.error_proto):
        p.user("ana")  # USER is not valid once logged in
    assert p.quit().startswith(b"+OK")


def test_stat_list_uidl(port):
    before = snapshot("ana")
    p = login(port, "ana")
    exp = DROPS["ana"]
    sizes = [len(wire(lines)) for _, lines, _ in exp]
    assert p.stat() == (len(exp), sum(sizes))
    resp, lines, _ = p.list()
    assert resp.startswith(b"+OK") and lines == [f"{i + 1} {s}".encode() for i, s in enumerate(sizes)]
    resp, lines, _ = p.uidl()
    assert lines == [f"{i + 1} {u}".encode() for i, (u, _, _) in enumerate(exp)]
    k = RNG.randrange(len(exp))
    assert p.list(k + 1).split() == [b"+OK", str(k + 1).encode(), str(sizes[k]).encode()]
    assert p.uidl(k + 1).split() == [b"+OK", str(k + 1).encode(), exp[k][0].encode()]
    for bad in (0, len(exp) + 1):
        with pytest.raises(poplib.error_proto):
            p.list(bad)
    p.quit()
    assert snapshot("ana") == before, "a session that only lists must not change the Maildir"


def test_retr_and_top(port):
    p = login(port, "bruno", retry=True)
    for i, (uid, lines, _) in enumerate(DROPS["bruno"]):
        resp, got, octets = p.retr(i + 1)
        assert resp.startswith(b"+OK") and got == lines, (uid, got, lines)
        head = lines.index(b"")
        for k in (0, 1, 3, 50):
            assert p.top(i + 1, k)[1] == lines[:head + 1 + k], (uid, k)
    with pytest.raises(poplib.error_proto):
        p.retr(len(DROPS["bruno"]) + 1)
    # the raw wire format: byte-stuffing and the terminator
    p.close()
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    f = s.makefile("rb")
    assert f.readline().startswith(b"+OK")
    for cmd in (b"USER bruno", b"PASS " + ACCOUNTS["bruno"].encode()):
        s.sendall(cmd + b"\r\n")
        assert f.readline().startswith(b"+OK"), cmd
    dotted = max(range(len(DROPS["bruno"])), key=lambda i: sum(l.startswith(b".") for l in DROPS["bruno"][i][1]))
    s.sendall(f"RETR {dotted + 1}\r\n".encode())
    assert f.readline().startswith(b"+OK")
    raw = b""
    while not raw.endswith(b"\r\n.\r\n"):
        chunk = f.readline()
        assert chunk, "connection closed during RETR"
        raw += chunk
    lines = DROPS["bruno"][dotted][1]
    assert raw == b"".join((b"." + l if l.startswith(b".") else l) + b"\r\n" for l in lines) + b".\r\n"
    for cmd in (b"FETCH 1", b"RETR x", b"TOP 1", b"DELE"):
        s.sendall(cmd + b"\r\n")
        assert f.readline().startswith(b"-ERR"), cmd
    s.sendall(b"QUIT\r\n")
    assert f.readline().startswith(b"+OK")
    s.close()


def test_maildrop_lock(port):
    a = login(port, "bruno", retry=True)
    b = connect(port)
    b.user("bruno")
    with pytest.raises(poplib.error_proto):
        b.pass_(ACCOUNTS["bruno"])
    c = login(port, "chen")  # other users are not blocked
    assert c.stat()[0] == 1
    c.quit()
    b.user("bruno")
    with pytest.raises(poplib.error_proto):
        b.pass_(ACCOUNTS["bruno"])
    a.quit()
    b.close()
    d = login(port, "bruno", retry=True)
    assert d.stat()[0] == len(DROPS["bruno"])
    d.quit()


def test_dropped_session_changes_nothing(port):
    before = snapshot("ana")
    p = login(port, "ana", retry=True)
    p.dele(1)
    p.dele(2)
    p.retr(3)
    p.sock.shutdown(socket.SHUT_RDWR)  # no QUIT
    p.close()
    p = login(port, "ana", retry=True)  # the maildrop must be released
    assert p.stat()[0] == len(DROPS["ana"])
    p.quit()
    assert snapshot("ana") == before


def test_dele_rset_and_update(port):
    exp = DROPS["ana"]
    p = login(port, "ana", retry=True)
    p.dele(2)
    with pytest.raises(poplib.error_proto):
        p.dele(2)
    with pytest.raises(poplib.error_proto):
        p.retr(2)
    assert p.stat() == (len(exp) - 1, sum(len(wire(l)) for i, (_, l, _) in enumerate(exp) if i != 1))
    assert [l.split()[0] for l in p.list()[1]] == [str(i + 1).encode() for i in range(len(exp)) if i != 1]
    p.rset()
    assert p.stat()[0] == len(exp)
    gone = {0, 4}
    retrieved = {i for i in range(len(exp)) if i not in gone}
    for i in gone:
        p.dele(i + 1)
    for i in retrieved:
        p.retr(i + 1)
    # mail that arrives during the session is not part of it
    late = f"{1800000001}.Mlate.host"
    (MAIL / "ana" / "new" / late).write_bytes(b"Subject: late\n\nlate\n")
    assert p.stat()[0] == len(exp) - len(gone)
    assert p.quit().startswith(b"+OK")
    remaining = [u for i, (u, _, _) in enumerate(exp) if i not in gone]
    assert snapshot("ana") == sorted([f"cur/{u}:2,S" for i, (u, _, new) in enumerate(exp) if i in retrieved and new]
                                     + [str(q.relative_to(MAIL / "ana")) for q in (MAIL / "ana" / "cur").iterdir()
                                        if not q.name.endswith(":2,S") or q.name.split(":")[0] not in
                                        {u for i, (u, _, new) in enumerate(exp) if new}]
                                     + [f"new/{late}"])
    p = login(port, "ana", retry=True)
    assert [l.split()[1].decode() for l in p.uidl()[1]] == remaining + [late]
    for n, (u, lines, _) in enumerate([e for i, e in enumerate(exp) if i not in gone]):
        assert p.retr(n + 1)[1] == lines, u
    p.quit()
