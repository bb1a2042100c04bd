"""The stack is started here (from another directory) with accounts, domains and aliases generated here."""
import hashlib
import json
import os
import poplib
import random
import signal
import smtplib
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

RNG = random.Random(2026)
TMP = Path(tempfile.mkdtemp(prefix="stack"))
MAIL = TMP / "mail"
SYL = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi"]
USERS = sorted({"".join(RNG.choice(SYL) for _ in range(3)) for _ in range(6)})[:5]
PASSWORDS = {u: f"pw:{u}-{RNG.randrange(10**6)}" for u in USERS}
DOMAINS = [f"{RNG.choice(SYL)}corp.test", f"Mail.{RNG.choice(SYL).upper()}.Test"]
ALIASES = {"crew": [USERS[0], USERS[1]], "staff": ["crew", USERS[2]], "everyone": ["staff", USERS[3], USERS[0]]}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def stack():
    users = {}
    for u in USERS:
        salt = os.urandom(6).hex()
        users[u] = {"salt": salt, "sha256": hashlib.sha256(bytes.fromhex(salt) + PASSWORDS[u].encode()).hexdigest()}
    smtp_port, pop_port = free_port(), free_port()
    conf = {"hostname": "mx.test", "domains": DOMAINS, "users": users, "aliases": ALIASES, "max_size": 200000,
            "maildir_root": str(MAIL), "smtp_port": smtp_port, "pop3_port": pop_port}
    (TMP / "stack.json").write_text(json.dumps(conf))
    proc = subprocess.Popen(["bash", "/app/mailstack/start.sh"], cwd=str(TMP), start_new_session=True,
                            env=dict(os.environ, MAILSTACK_CONFIG=str(TMP / "stack.json")),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 30
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            for p in (smtp_port, pop_port):
                socket.create_connection(("127.0.0.1", p), timeout=1).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield (smtp_port, pop_port) if ok else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def send(stack, sender, rcpts, body):
    assert stack, "the stack did not start (both ports) from another working directory"
    with smtplib.SMTP("127.0.0.1", stack[0], timeout=30) as s:
        return s.sendmail(sender, rcpts, body)


def pop(stack, user):
    assert stack, "the stack did not start (both ports) from another working directory"
    p = poplib.POP3("127.0.0.1", stack[1], timeout=30)
    p.user(user)
    p.pass_(PASSWORDS[user])
    return p


def clear():
    for p in MAIL.glob("*/*/*"):
        if p.is_file():
            p.unlink()


def presented(sender, body):
    return [f"Return-Path: <{sender}>".encode()] + [l.encode() for l in body.split("\n")]


def test_roundtrip_with_dot_lines(stack):
    clear()
    u = USERS[4]
    body = "Subject: dots\n\n.leading\n..double\n.\nplain text\n" + "\n".join("." * RNG.randrange(1, 4) + "x" for _ in range(5))
    assert send(stack, "a@ext.test", [f"{u}@{DOMAINS[0]}"], body) == {}
    p = pop(stack, u)
    assert p.stat()[0] == 1
    lines = p.retr(1)[1]
    assert lines == presented("a@ext.test", body)
    p.quit()


def test_domains_and_users_case_insensitive(stack):
    clear()
    u = USERS[3]
    assert send(stack, "b@ext.test", [f"{u.upper()}@{DOMAINS[1].lower()}", f"{u}@{DOMAINS[0].upper()}"], "Subject: c\n\nx") == {}
    with smtplib.SMTP("127.0.0.1", stack[0], timeout=30) as s:
        s.ehlo("c")
        s.mail("b@ext.test")
        assert s.rcpt(f"{u}@elsewhere.test")[0] == 550
        assert s.rcpt(f"nobody@{DOMAINS[0]}")[0] == 550
        assert s.rcpt(f"{u}@{DOMAINS[1]}")[0] == 250
        s.rset()
    p = pop(stack, u)
    assert p.stat()[0] == 1, "two recipients that name the same user: one copy"
    p.quit()


def test_aliases_expand_recursively_once(stack):
    clear()
    body = "Subject: all hands\n\n" + " ".join(RNG.sample(SYL, 5))
    assert send(stack, "boss@ext.test", [f"everyone@{DOMAINS[0]}"], body) == {}
    assert send(stack, "boss@ext.test", [f"everyone@{DOMAINS[0]}", f"CREW@{DOMAINS[1]}", f"{USERS[2]}@{DOMAINS[0]}"], body) == {}
    for u in USERS:
        p = pop(stack, u)
        n = p.stat()[0]
        p.quit()
        assert n == (2 if u in USERS[:4] else 0), (u, n)


def test_sizes_match_presented_messages(stack):
    clear()
    u = USERS[1]
    bodies = [f"Subject: m{i}\n\n" + "\n".join(" ".join(RNG.sample(SYL, 4)) for _ in range(RNG.randrange(1, 30)))
              for i in range(4)]
    for b in bodies:
        send(stack, "s@ext.test", [f"{u}@{DOMAINS[0]}"], b)
    p = pop(stack, u)
    sizes = [int(l.split()[1]) for l in p.list()[1]]
    msgs = [p.retr(i + 1)[1] for i in range(len(bodies))]
    assert sorted(msgs) == sorted(presented("s@ext.test", b) for b in bodies)
    assert sizes == [sum(len(l) + 2 for l in m) for m in msgs], "sizes count the CRLF form"
    assert p.stat() == (4, sum(sizes))
    p.quit()


def test_deletes_only_at_quit(stack):
    clear()
    u = USERS[0]
    for i in range(3):
        send(stack, "d@ext.test", [f"{u}@{DOMAINS[0]}"], f"Subject: d{i}\n\nbody {i}")
    p = pop(stack, u)
    p.dele(1)
    p.rset()
    assert p.stat()[0] == 3, "RSET unmarks"
    p.dele(2)
    p.sock.shutdown(socket.SHUT_RDWR)  # no QUIT
    p.close()
    deadline = time.time() + 20
    while True:
        try:
            p = pop(stack, u)
            break
        except poplib.error_proto:
            assert time.time() < deadline
            time.sleep(0.2)
    assert p.stat()[0] == 3, "a session without QUIT removes nothing"
    p.dele(3)
    p.quit()
    p = pop(stack, u)
    assert p.stat()[0] == 2
    p.quit()
