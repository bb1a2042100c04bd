"""The receiver is started here with a configuration generated here; mail is sent with smtplib and raw sockets."""
import json
import os
import random
import signal
import smtplib
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

RNG = random.Random(5321)
SYL = ["ka", "ro", "mi", "tu", "le", "xo", "pa", "ne", "vi", "da", "su", "gor"]


def word(n=3):
    return "".join(RNG.choice(SYL) for _ in range(n))


USERS = sorted({word() for _ in range(8)})
while len(USERS) < 6:
    USERS.append(word(4))
USERS = sorted(set(USERS))
DOMAINS = [f"{word(2)}.test", f"Mail.{word(2).capitalize()}.Test"]
A1, A2, A3 = "grp" + word(2), "lst" + word(2), "all" + word(2)
ALIASES = {A1: [USERS[0], USERS[1]], A2: [A1, USERS[2]], A3: [A2, USERS[0], USERS[3]], "abuse": [USERS[4]]}
MAX = RNG.randrange(6000, 9000)
HOST = f"mx.{word(2)}.test"
SENDER = "<robot@sender.test>"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def srv():
    root = Path(tempfile.mkdtemp(prefix="maildirs"))
    conf = root / "conf.json"
    mail = root / "mail"
    mail.mkdir()
    conf.write_text(json.dumps({"hostname": HOST, "domains": DOMAINS, "users": USERS, "aliases": ALIASES,
                                "max_size": MAX, "maildir_root": str(mail)}))
    port = free_port()
    proc = subprocess.Popen(["bash", "/app/mailrx/run.sh"], cwd="/",
                            env=dict(os.environ, SMTP_PORT=str(port), MAILRX_CONFIG=str(conf)),
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 30
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield (port, mail) if ok else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def smtp(srv):
    assert srv, "the receiver did not start listening"
    return smtplib.SMTP("127.0.0.1", srv[0], timeout=20)


def mailbox(srv, user):
    d = srv[1] / user / "new"
    return sorted(p.read_bytes() for p in d.iterdir()) if d.is_dir() else []


def clear(srv):
    assert srv, "the receiver did not start listening"
    for p in srv[1].glob("*/new/*"):
        p.unlink()


def crlf(text):
    return "".join(line + "\r\n" for line in text.split("\n")).encode()


class Raw:
    def __init__(self, srv):
        assert srv, "the receiver did not start listening"
        self.s = socket.create_connection(("127.0.0.1", srv[0]), timeout=20)
        self.f = self.s.makefile("rb")
        self.greeting = self.read()

    def read(self):
        lines = []
        while True:
            line = self.f.readline().decode()
            assert line, "connection closed"
            lines.append(line.rstrip("\r\n"))
            if line[3:4] != "-":
                return lines

    def cmd(self, text):
        self.s.sendall(text.encode() + b"\r\n")
        return self.read()

    def code(self, text):
        return int(self.cmd(text)[-1][:3])


def test_greeting_and_ehlo(srv):
    r = Raw(srv)
    assert r.greeting[0].startswith("220 " + HOST), r.greeting
    lines = r.cmd("EHLO client.test")
    assert lines[0] == f"250-{HOST}", lines
    assert f"250-SIZE {MAX}" in lines and lines[-1] == "250 8BITMIME", lines
    assert r.code("HELO client.test") == 250
    assert r.code("NOOP") == 250
    assert r.code("VRFY " + USERS[0]) == 252
    assert r.cmd("QUIT")[0].startswith("221")
    assert r.f.readline() == b"", "the connection must be closed after QUIT"


def test_delivery_with_dot_lines(srv):
    clear(srv)
    user = USERS[2]
    body = ("Subject: dots\n\nfirst line\n.leading dot\n..two dots\n.\n. a dot and space\n"
            + "\n".join(word(5) for _ in range(30)) + "\nlast")
    with smtp(srv) as s:
        s.ehlo("client.test")
        assert s.has_extn("size") and s.esmtp_features["size"] == str(MAX)
        refused = s.sendmail("robot@sender.test", [f"{user.upper()}@{DOMAINS[0].upper()}"], body)
        assert refused == {}
    got = mailbox(srv, user)
    assert len(got) == 1, got
    assert got[0] == b"Return-Path: " + SENDER.encode() + b"\r\n" + crlf(body)
    assert not list((srv[1] / user / "tmp").iterdir()), "tmp/ must be empty after delivery"


def test_relay_and_unknown_recipients_refused(srv):
    clear(srv)
    user = USERS[1]
    with smtp(srv) as s:
        refused = s.sendmail("", [f"{user}@{word(2)}.example", f"{user}@{DOMAINS[1].lower()}",
                                  f"nobody{word(2)}@{DOMAINS[0]}", f"{user}@{DOMAINS[0]}.evil.test"], "Subject: x\n\nhi")
    assert len(refused) == 3 and all(code == 550 for code, _ in refused.values()), refused
    assert f"{user}@{DOMAINS[1].lower()}" not in refused
    got = mailbox(srv, user)
    assert got == [b"Return-Path: <>\r\n" + crlf("Subject: x\n\nhi")], got
    others = [u for u in USERS if u != user and mailbox(srv, u)]
    assert not others, f"nothing may be delivered to {others}"
    with smtp(srv) as s:
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            s.sendmail("a@b.test", [f"{USERS[0]}@elsewhere.test"], "x")


def test_aliases_expand_once_per_user(srv):
    clear(srv)
    rcpts = [f"{A3}@{DOMAINS[1]}", f"{USERS[1]}@{DOMAINS[0]}", f"{A1.upper()}@{DOMAINS[0]}", f"ABUSE@{DOMAINS[0]}"]
    body = "Subject: team news\n\n" + word(6)
    with smtp(srv) as s:
        assert s.sendmail("boss@sender.test", rcpts, body) == {}
    expect = {USERS[0], USERS[1], USERS[2], USERS[3], USERS[4]}
    for u in USERS:
        got = mailbox(srv, u)
        if u in expect:
            assert got == [b"Return-Path: <boss@sender.test>\r\n" + crlf(body)], (u, len(got))
        else:
            assert got == [], u


def test_size_limit(srv):
    clear(srv)
    user = USERS[3]
    r = Raw(srv)
    assert r.code("EHLO c") == 250
    assert r.code(f"MAIL FROM:<a@b.test> SIZE={MAX + 1}") == 552
    assert r.code(f"MAIL FROM:<a@b.test> SIZE={MAX}") == 250
    r.cmd("QUIT")
    # exactly max_size bytes passes, one more is refused with nothing delivered
    head = "Subject: size\n\n"
    n = MAX - len(crlf(head + "x")) + 1
    exact = head + "y" * n
    assert len(crlf(exact)) == MAX
    with smtp(srv) as s:
        assert s.sendmail("a@b.test", [f"{user}@{DOMAINS[0]}"], exact) == {}
        with pytest.raises(smtplib.SMTPSenderRefused) as e:  # smtplib announces size=MAX+1 (no final CRLF)
            s.sendmail("a@b.test", [f"{user}@{DOMAINS[0]}"], exact + "zzz")
        assert e.value.smtp_code == 552
    # without an announced size the limit is enforced on the data itself
    r = Raw(srv)
    assert r.code("HELO c") == 250
    assert r.code("MAIL FROM:<a@b.test>") == 250
    assert r.code(f"RCPT TO:<{user}@{DOMAINS[0]}>") == 250
    assert r.code("DATA") == 354
    r.s.sendall(crlf(exact + "z") + b".\r\n")
    assert r.read()[-1].startswith("552")
    # the session goes on after a refused message
    assert r.code("MAIL FROM:<a@b.test>") == 250
    assert r.code(f"RCPT TO:<{user}@{DOMAINS[0]}>") == 250
    assert r.code("DATA") == 354
    r.s.sendall(crlf("Subject: small\n\nok") + b".\r\n")
    assert r.read()[-1].startswith("250")
    got = mailbox(srv, user)
    assert len(got) == 2 and b"Return-Path: <a@b.test>\r\n" + crlf(exact) in got, [len(g) for g in got]


def test_command_sequencing(srv):
    clear(srv)
    r = Raw(srv)
    assert r.code(f"MAIL FROM:<a@b.test>") == 503, "MAIL before HELO/EHLO"
    assert r.code("HELO c") == 250
    assert r.code(f"RCPT TO:<{USERS[0]}@{DOMAINS[0]}>") == 503
    assert r.code("DATA") == 503
    assert r.code("MAIL FROM:a@b.test") == 501
    assert r.code("MAIL FROM:<a@b.test>") == 250
    assert r.code("MAIL FROM:<c@d.test>") == 503
    assert r.code("RCPT TO:nobracket") == 501
    assert r.code(f"RCPT TO:<nosuch{word(2)}@{DOMAINS[0]}>") == 550
    assert r.code("DATA") == 503, "DATA with no accepted recipient"
    assert r.code(f"RCPT TO:<{USERS[0]}@{DOMAINS[0]}>") == 250
    assert r.code("RSET") == 250
    assert r.code("DATA") == 503, "RSET must drop the transaction"
    assert r.code("FROB x") == 500
    assert r.code("mail from:<e@f.test>") == 250, "commands are case-insensitive"
    assert r.code(f"rcpt to:<{USERS[5 % len(USERS)]}@{DOMAINS[1]}>") == 250
    assert r.code("data") == 354
    r.s.sendall(b"Subject: raw\r\n\r\n..x\r\n.\r\n")
    assert r.read()[-1].startswith("250")
    assert r.code(f"RCPT TO:<{USERS[0]}@{DOMAINS[0]}>") == 503, "the transaction ends after DATA"
    assert mailbox(srv, USERS[5 % len(USERS)]) == [b"Return-Path: <e@f.test>\r\nSubject: raw\r\n\r\n.x\r\n"]
    assert mailbox(srv, USERS[0]) == []


def test_concurrent_sessions(srv):
    clear(srv)
    a, b = Raw(srv), Raw(srv)
    assert a.code("EHLO a") == 250 and b.code("EHLO b") == 250
    assert a.code("MAIL FROM:<first@x.test>") == 250
    assert a.code(f"RCPT TO:<{USERS[0]}@{DOMAINS[0]}>") == 250
    # a second client completes a whole message while the first one is mid-transaction
    assert b.code("MAIL FROM:<second@x.test>") == 250
    assert b.code(f"RCPT TO:<{USERS[0]}@{DOMAINS[0]}>") == 250
    assert b.code(f"RCPT TO:<{A1}@{DOMAINS[0]}>") == 250
    assert b.code("DATA") == 354
    b.s.sendall(b"Subject: b\r\n\r\nfrom b\r\n.\r\n")
    assert b.read()[-1].startswith("250")
    assert mailbox(srv, USERS[0]) == [b"Return-Path: <second@x.test>\r\nSubject: b\r\n\r\nfrom b\r\n"]
    assert a.code("DATA") == 354
    a.s.sendall(b"Subject: a\r\n\r\nfrom a\r\n.\r\n")
    assert a.read()[-1].startswith("250")
    # several messages in one session
    for i in range(3):
        assert a.code("MAIL FROM:<loop@x.test>") == 250
        assert a.code(f"RCPT TO:<{USERS[1]}@{DOMAINS[1]}>") == 250
        assert a.code("DATA") == 354
        a.s.sendall(f"n: {i}\r\n.\r\n".encode())
        assert a.read()[-1].startswith("250")
    assert sorted(mailbox(srv, USERS[0])) == sorted([b"Return-Path: <second@x.test>\r\nSubject: b\r\n\r\nfrom b\r\n",
                                                     b"Return-Path: <first@x.test>\r\nSubject: a\r\n\r\nfrom a\r\n"])
    assert sorted(mailbox(srv, USERS[1])) == sorted([b"Return-Path: <second@x.test>\r\nSubject: b\r\n\r\nfrom b\r\n"]
                                                    + [f"Return-Path: <loop@x.test>\r\nn: {i}\r\n".encode() for i in range(3)])
