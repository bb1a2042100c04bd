"""The server is started here; clients are raw sockets; nicks and channels are generated here."""
import os
import random
import signal
import socket
import subprocess
import time

import pytest

RNG = random.Random(1459)
S = ":irc.test"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def port():
    port = free_port()
    proc = subprocess.Popen(["bash", "/app/ircd/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, IRC_PORT=str(port)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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


def nick(prefix="n"):
    return prefix + "".join(RNG.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(6))


class C:
    def __init__(self, port, nick_=None, user=None):
        assert port, "the server did not start listening"
        self.s = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.f = self.s.makefile("rb")
        self.k = 0
        if nick_:
            self.nick, self.user = nick_, user or ("u" + nick_[:5])
            self.send(f"NICK {nick_}")
            self.send(f"USER {self.user} 0 * :Real {nick_}")
            assert self.read() == [f"{S} 001 {nick_} :Welcome {nick_}!{self.user}@127.0.0.1"]

    @property
    def pfx(self):
        return f"{self.nick}!{self.user}@127.0.0.1"

    def send(self, line):
        self.s.sendall(line.encode() + b"\r\n")

    def read(self):
        """Every line received up to now: a PING round trip marks the end."""
        self.k += 1
        token = f"sync{self.k}"
        self.send(f"PING {token}")
        out = []
        while True:
            raw = self.f.readline()
            assert raw, f"connection closed; got {out}"
            assert raw.endswith(b"\r\n"), raw
            line = raw.decode().rstrip("\r\n")
            if line == f"{S} PONG irc.test :{token}":
                return out
            out.append(line)

    def cmd(self, line):
        self.send(line)
        return self.read()


def settle(*clients):
    """Lets the actions of these clients finish: after a round trip each, their fan-out has been written."""
    return [c.read() for c in clients]


def test_unregistered_client(port):
    c = C(port)  # read() itself relies on PING being answered before registration
    assert c.cmd("JOIN #x") == [f"{S} 451 * :You have not registered"]
    n = nick("r")
    assert c.cmd(f"NICK {n}") == []
    assert c.cmd("USER onlyone") == [f"{S} 461 {n} USER :Not enough parameters"]
    assert c.cmd("PRIVMSG x :y") == [f"{S} 451 {n} :You have not registered"]
    assert c.cmd("user uu 0 * :Real Name") == [f"{S} 001 {n} :Welcome {n}!uu@127.0.0.1"]
    assert c.cmd("FROB x") == [f"{S} 421 {n} FROB :Unknown command"]
    d = C(port)
    d.send("QUIT")
    assert d.f.readline() == b"", "QUIT closes the connection, registered or not"


def test_nick_validity(port):
    c = C(port)
    for b in ["9abc", "-dash", "x" * 17, "sp@ce", "dot.ted", "t~lde"]:
        assert c.cmd(f"NICK {b}") == [f"{S} 432 * {b} :Erroneous nickname"], b
    n = "[Ab]`_^{|}-" + str(RNG.randrange(10))
    assert c.cmd("USER uu 0 * :R") == []
    assert c.cmd(f"NICK {n}") == [f"{S} 001 {n} :Welcome {n}!uu@127.0.0.1"]
    assert c.cmd("NICK " + "y" * 16)[0].endswith(" NICK " + "y" * 16)
    assert c.cmd("NICK 1bad") == [f"{S} 432 {'y' * 16} 1bad :Erroneous nickname"]


def test_nick_collisions_use_rfc1459_mapping(port):
    base = "[Q" + nick("x")[1:5] + "]\\^"
    c = C(port, base)
    d = C(port)
    assert d.cmd("USER vv 0 * :V") == []
    for taken in (base, base.lower(), base.upper().replace("[", "{").replace("]", "}").replace("\\", "|")):
        assert d.cmd(f"NICK {taken}") == [f"{S} 433 * {taken} :Nickname is already in use"], taken
    m = nick()
    assert d.cmd(f"NICK {m}") == [f"{S} 001 {m} :Welcome {m}!vv@127.0.0.1"]
    c.send("QUIT")
    assert c.f.readline() == b""
    deadline = time.time() + 20  # the nick is freed once the server has handled the QUIT
    while d.cmd(f"NICK {base.lower()}") != [f":{m}!vv@127.0.0.1 NICK {base.lower()}"]:
        assert time.time() < deadline, "the nick of a client that quit must become free"
        time.sleep(0.1)


def test_join_names_part(port):
    ch = "#" + nick("Room")
    a, b, c = C(port, nick("a")), C(port, nick("b")), C(port, nick("c"))
    assert a.cmd(f"JOIN {ch}") == [f":{a.pfx} JOIN {ch}", f"{S} 353 {a.nick} = {ch} :{a.nick}",
                                   f"{S} 366 {a.nick} {ch} :End of /NAMES list"]
    folded = ch.lower().replace("[", "{")
    assert b.cmd(f"JOIN {folded}") == [f":{b.pfx} JOIN {ch}", f"{S} 353 {b.nick} = {ch} :{a.nick} {b.nick}",
                                       f"{S} 366 {b.nick} {ch} :End of /NAMES list"]
    assert a.read() == [f":{b.pfx} JOIN {ch}"]
    assert c.cmd(f"JOIN #ok-{c.nick},bad,{ch}") == [
        f":{c.pfx} JOIN #ok-{c.nick}", f"{S} 353 {c.nick} = #ok-{c.nick} :{c.nick}", f"{S} 366 {c.nick} #ok-{c.nick} :End of /NAMES list",
        f"{S} 403 {c.nick} bad :No such channel",
        f":{c.pfx} JOIN {ch}", f"{S} 353 {c.nick} = {ch} :{a.nick} {b.nick} {c.nick}", f"{S} 366 {c.nick} {ch} :End of /NAMES list"]
    assert c.cmd(f"JOIN {ch}") == [], "joining again does nothing"
    assert settle(a, b) == [[f":{c.pfx} JOIN {ch}"], [f":{c.pfx} JOIN {ch}"]]
    assert b.cmd(f"PART {ch} :see you later") == [f":{b.pfx} PART {ch} :see you later"]
    assert settle(a, c) == [[f":{b.pfx} PART {ch} :see you later"]] * 2
    assert b.cmd(f"PART {ch}") == [f"{S} 442 {b.nick} {ch} :You're not on that channel"]
    assert b.cmd("PART #nowhere") == [f"{S} 442 {b.nick} #nowhere :You're not on that channel"]
    assert a.cmd(f"PART {ch}") == [f":{a.pfx} PART {ch}"]
    assert c.read() == [f":{a.pfx} PART {ch}"]
    assert c.cmd(f"PART {ch}") == [f":{c.pfx} PART {ch}"]
    # the channel is gone: a new JOIN creates it with the new spelling
    assert b.cmd(f"JOIN {folded}")[0] == f":{b.pfx} JOIN {folded}"


def test_privmsg(port):
    ch = "#" + nick("talk")
    a, b, c = C(port, nick("a")), C(port, nick("b")), C(port, nick("c"))
    for x in (a, b):
        x.cmd(f"JOIN {ch}")
    settle(a, b)
    assert a.cmd(f"PRIVMSG {ch} :hello all: ünïcode ✓") == []
    assert settle(b, c) == [[f":{a.pfx} PRIVMSG {ch} :hello all: ünïcode ✓"], []]
    assert c.cmd(f"PRIVMSG {ch} :let me in") == [f"{S} 404 {c.nick} {ch} :Cannot send to channel"]
    assert c.cmd(f"PRIVMSG {b.nick.upper()} :psst") == []
    assert b.read() == [f":{c.pfx} PRIVMSG {b.nick.upper()} :psst"]
    assert c.cmd("PRIVMSG nobody123 :x") == [f"{S} 401 {c.nick} nobody123 :No such nick/channel"]
    assert c.cmd("PRIVMSG #nochan :x") == [f"{S} 401 {c.nick} #nochan :No such nick/channel"]
    assert c.cmd("PRIVMSG") == [f"{S} 411 {c.nick} :No recipient given (PRIVMSG)"]
    assert c.cmd(f"PRIVMSG {a.nick}") == [f"{S} 412 {c.nick} :No text to send"]
    assert c.cmd(f"privmsg {a.nick} single") == []
    assert a.read() == [f":{c.pfx} PRIVMSG {a.nick} :single"]


def test_nick_change_and_quit_fan_out_once(port):
    ch1, ch2 = "#" + nick("one"), "#" + nick("two")
    a, b, c, d = (C(port, nick(p)) for p in "abcd")
    for x, chans in ((a, [ch1, ch2]), (b, [ch1, ch2]), (c, [ch2]), (d, [])):
        for ch in chans:
            x.cmd(f"JOIN {ch}")
    settle(a, b, c, d)
    new = nick("A")
    old = a.pfx
    assert a.cmd(f"NICK {new}") == [f":{old} NICK {new}"]
    assert settle(b, c, d) == [[f":{old} NICK {new}"], [f":{old} NICK {new}"], []]
    a.nick = new
    assert a.cmd(f"NICK {new.lower()}") == [f":{a.pfx} NICK {new.lower()}"], "a case-only change is allowed"
    settle(b, c)
    a.nick = new.lower()
    assert b.cmd(f"NICK {new.upper()}") == [f"{S} 433 {b.nick} {new.upper()} :Nickname is already in use"]
    a.send("QUIT :gone fishing")
    assert a.f.readline() == b"", "the connection must be closed after QUIT"
    assert settle(b, c, d) == [[f":{a.pfx} QUIT :gone fishing"], [f":{a.pfx} QUIT :gone fishing"], []]
    b.s.shutdown(socket.SHUT_RDWR)  # dropped without QUIT
    b.s.close()
    deadline = time.time() + 20
    got = []
    while not got and time.time() < deadline:
        got = c.read()
        time.sleep(0.05)
    assert got == [f":{b.pfx} QUIT :Connection closed"]
    # the nick is free again
    e = C(port, b.nick)
    assert e.cmd(f"JOIN {ch2}")[1] == f"{S} 353 {b.nick} = {ch2} :{c.nick} {b.nick}"
