"""The gate is started here with generated ports; knock sequences and source addresses are generated here."""
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import time

import pytest

RNG = random.Random(4242)


def free_ports(n):
    out, socks = [], []
    while len(out) < n:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        out.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return out


P = free_ports(6)
SEQ = [P[0], P[1], P[0], P[2]]
DECOYS, PROTECTED = [P[3], P[4]], P[5]


class Model:
    def __init__(self):
        self.k = {}

    def knock(self, ip, port):
        k = self.k.get(ip, 0)
        k = k + 1 if k < len(SEQ) and port == SEQ[k] else 1 if port == SEQ[0] else 0
        self.k[ip] = k
        return f"KNOCK {k}/{len(SEQ)}"

    def protected(self, ip):
        ok = self.k.get(ip, 0) == len(SEQ)
        self.k[ip] = 0
        return f"OPEN {ip}" if ok else "DENIED"


@pytest.fixture(scope="module")
def gate():
    conf = tempfile.mktemp(suffix=".json")
    with open(conf, "w") as f:
        json.dump({"sequence": SEQ, "decoys": DECOYS, "protected": PROTECTED}, f)
    proc = subprocess.Popen(["bash", "/app/knock/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, KNOCK_CONFIG=conf), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 30
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", PROTECTED), timeout=1, source_address=("127.0.0.250", 0)).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield ok
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def hit(gate, ip, port):
    assert gate, "the gate did not start listening"
    with socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(ip, 0)) as s:
        return s.makefile("rb").readline().decode().rstrip("\n")


def test_sequence_opens_once(gate):
    ip = "127.0.0.10"
    assert [hit(gate, ip, p) for p in SEQ] == ["KNOCK 1/4", "KNOCK 2/4", "KNOCK 3/4", "KNOCK 4/4"]
    with socket.create_connection(("127.0.0.1", PROTECTED), timeout=20, source_address=(ip, 0)) as s:
        f = s.makefile("rwb")
        assert f.readline() == f"OPEN {ip}\n".encode()
        for line in (b"status\n", b"reboot now\n", b"x" * 3000 + b"\n"):
            f.write(line)
            f.flush()
            assert f.readline() == line
    assert hit(gate, ip, PROTECTED) == "DENIED", "a grant is used up by one connection"


def test_other_addresses_are_not_opened(gate):
    a, b = "127.0.0.11", "127.0.0.12"
    for p in SEQ:
        hit(gate, a, p)
    assert hit(gate, b, PROTECTED) == "DENIED"
    assert hit(gate, a, PROTECTED) == f"OPEN {a}"


def test_interleaved_hosts_match_the_model(gate):
    m = Model()
    ips = ["127.0.0.20", "127.0.0.21", "127.0.0.22"]
    ports = SEQ + SEQ + DECOYS + [PROTECTED]
    got, want = [], []
    for _ in range(150):
        ip = RNG.choice(ips)
        port = RNG.choice(ports)
        if RNG.random() < 0.35:  # often follow the sequence so that hosts do get in
            port = SEQ[m.k.get(ip, 0) % len(SEQ)] if m.k.get(ip, 0) < len(SEQ) else PROTECTED
        want.append(m.protected(ip) if port == PROTECTED else m.knock(ip, port))
        got.append(hit(gate, ip, port))
    assert got == want, [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w][:5]
    assert any(w.startswith("OPEN") for w in want)


def test_restart_decoys_and_denied_reset(gate):
    ip = "127.0.0.30"
    # a wrong knock on the first port restarts at 1
    assert [hit(gate, ip, p) for p in (SEQ[0], SEQ[1], SEQ[1], SEQ[0], SEQ[1])] == \
        ["KNOCK 1/4", "KNOCK 2/4", "KNOCK 0/4", "KNOCK 1/4", "KNOCK 2/4"]
    assert hit(gate, ip, DECOYS[0]) == "KNOCK 0/4", "a decoy resets"
    for p in SEQ[:3]:
        hit(gate, ip, p)
    assert hit(gate, ip, PROTECTED) == "DENIED"
    assert hit(gate, ip, SEQ[3]) == "KNOCK 0/4", "a DENIED connection reset the progress"
    # a complete sequence followed by another knock loses the grant
    for p in SEQ:
        hit(gate, ip, p)
    assert hit(gate, ip, SEQ[0]) == "KNOCK 1/4"
    assert hit(gate, ip, PROTECTED) == "DENIED"
