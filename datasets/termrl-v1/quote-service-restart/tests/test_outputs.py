import os
import signal
import socket
import subprocess
import time

import pytest

PORT = 7070


def start():
    proc = subprocess.Popen(["/app/quotesvc/run.sh"], cwd="/", start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # A hang guard, not a speed bar: without SO_REUSEADDR the bind fails at once while the old connections
    # sit in TIME_WAIT (60 s on Linux), so waiting longer for a slow start lets no wrong server through.
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            return proc, False
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=0.5).close()
            return proc, True
        except OSError:
            time.sleep(0.1)
    return proc, False


def stop(proc, sig=signal.SIGTERM):
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        proc.wait(timeout=5)


def ask(line):
    with socket.create_connection(("127.0.0.1", PORT), timeout=5) as s:
        s.sendall(line.encode() + b"\n")
        data = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return data.decode("utf-8")


@pytest.fixture
def svc():
    proc, ok = start()
    yield proc, ok
    stop(proc, signal.SIGKILL)


def listening_addresses():
    out = set()
    for f in ["/proc/net/tcp", "/proc/net/tcp6"]:
        for line in open(f).read().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            addr, port = local.split(":")
            if state == "0A" and int(port, 16) == PORT:
                out.add(addr)
    return out


def test_starts_from_other_cwd(svc):
    proc, ok = svc
    assert ok, "service did not start when launched from /"
    assert ask("COUNT") == "7\n"


def test_protocol(svc):
    assert svc[1]
    assert ask("QUOTE 1") == "Simplicity is prerequisite for reliability.\n"
    assert ask("QUOTE 7") == "Ça marche sur ma machine.\n"
    assert ask("QUOTE 8") == "ERR\n"
    assert ask("HELLO") == "ERR\n"


def test_loopback_only(svc):
    assert svc[1]
    assert listening_addresses() == {"0100007F"}


def test_immediate_restart():
    proc, ok = start()
    assert ok
    try:
        for i in range(5):
            ask("QUOTE 2")
    finally:
        stop(proc, signal.SIGKILL)
    proc2, ok2 = start()
    try:
        assert ok2, "restart failed right after serving clients"
        assert ask("QUOTE 2") == "Make it work, make it right, make it fast.\n"
    finally:
        stop(proc2, signal.SIGKILL)
