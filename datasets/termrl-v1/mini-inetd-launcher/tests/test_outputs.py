"""Services (small programs written here) and the configuration are generated here; clients connect from 127.0.0.x."""
import os
import random
import signal
import socket
import subprocess
import tempfile
import time

import pytest

RNG = random.Random(1985)
TMP = tempfile.mkdtemp(prefix="inetd")


def free_ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


ECHO, ENVP, GATE, FDS = free_ports(4)
TOKEN = f"arg-{RNG.randrange(10**6)}"
SCRIPTS = {
    "env.sh": '#!/bin/sh\necho "$REMOTE_ADDR $REMOTE_PORT $SERVICE_PORT $1 $INHERITED"\n',
    "gate.sh": '#!/bin/sh\necho ready\nread line\necho "got $line"\n',
    "fds.sh": "#!/usr/bin/env python3\nimport os\nextra = []\nfor f in sorted(int(x) for x in os.listdir('/proc/self/fd')):\n"
              "    try:\n        if f > 2 and os.readlink('/proc/self/fd/%d' % f).startswith('socket:'):\n"
              "            extra.append(f)\n    except OSError:\n        pass\nprint('sockets', *extra)\n",
}
CONF = f"""# generated
{ECHO} 8 /bin/cat
  {ENVP}   3   {TMP}/env.sh {TOKEN}

{GATE} 2 {TMP}/gate.sh
{FDS} 1 {TMP}/fds.sh
"""


@pytest.fixture(scope="module")
def inetd():
    for name, text in SCRIPTS.items():
        with open(f"{TMP}/{name}", "w") as f:
            f.write(text)
        os.chmod(f"{TMP}/{name}", 0o755)
    with open(f"{TMP}/inetd.conf", "w") as f:
        f.write(CONF)
    proc = subprocess.Popen(["bash", "/app/inetd/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, INETD_CONF=f"{TMP}/inetd.conf", INHERITED="kept"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 240  # hang guard only
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", ECHO), timeout=5).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield ok
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def connect(inetd, port, src="127.0.0.1"):
    assert inetd, "the launcher did not start listening"
    return socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(src, 0))


def read_all(s):
    out = b""
    while True:
        try:
            d = s.recv(65536)
        except ConnectionResetError:
            return out
        if not d:
            return out
        out += d


def test_echo_and_half_close(inetd):
    data = os.urandom(300000)
    with connect(inetd, ECHO) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        assert read_all(s) == data, "the program must see EOF on half-close and the client EOF when it exits"


def test_environment_and_args(inetd):
    for src in ("127.0.0.1", "127.0.0.9"):
        with connect(inetd, ENVP, src) as s:
            port = s.getsockname()[1]
            assert read_all(s) == f"{src} {port} {ENVP} {TOKEN} kept\n".encode()


def test_connection_closes_when_program_exits(inetd):
    with connect(inetd, ENVP) as s:
        got = read_all(s)  # env.sh exits without reading: the close must come without any client action
        assert got.endswith(b"kept\n")


def test_instance_cap_and_release(inetd):
    a, b = connect(inetd, GATE), connect(inetd, GATE)
    fa, fb = a.makefile("rb"), b.makefile("rb")
    assert fa.readline() == b"ready\n" and fb.readline() == b"ready\n"
    with connect(inetd, GATE) as c:
        assert read_all(c) == b"", "a third connection over MAXCONN=2 is closed without starting the program"
    a.sendall(b"one\n")
    assert fa.readline() == b"got one\n" and fa.readline() == b""
    a.close()
    deadline = time.time() + 240  # hang guard only: the launcher notices the exit on its own schedule
    while True:
        with connect(inetd, GATE) as d:
            first = d.makefile("rb").readline()
            if first == b"ready\n":
                d.sendall(b"two\n")
                break
        assert time.time() < deadline, "a slot must be freed when a program exits"
        time.sleep(0.1)
    b.sendall(b"three\n")
    assert fb.readline() == b"got three\n"
    b.close()


def test_no_leaked_descriptors(inetd):
    with connect(inetd, FDS) as s:
        got = read_all(s)
    assert got == b"sockets\n", f"sockets open in the program beyond stdin/stdout: {got!r}"
