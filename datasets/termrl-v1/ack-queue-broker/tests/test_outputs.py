"""The broker is started (and SIGKILLed and restarted) here; clients are raw sockets; traffic generated here."""
import os
import random
import signal
import socket
import subprocess
import tempfile
import threading
import time

import pytest

RNG = random.Random(7400)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Broker:
    def __init__(self):
        self.data = tempfile.mkdtemp(prefix="mqdata") + "/state"
        self.port = free_port()
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(["bash", "/app/mq/run.sh"], cwd="/", start_new_session=True,
                                     env=dict(os.environ, MQ_PORT=str(self.port), MQ_DATA=self.data),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline and self.proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                time.sleep(0.1)
        return False

    def kill(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def broker():
    b = Broker()
    ok = b.start()
    yield b if ok else None
    b.kill()


class Client:
    def __init__(self, broker, timeout=20):
        assert broker, "the broker did not start listening"
        self.s = socket.create_connection(("127.0.0.1", broker.port), timeout=timeout)
        self.f = self.s.makefile("rb")
        self.pushed = []

    def line(self):
        raw = self.f.readline()
        assert raw, "connection closed by the broker"
        return raw.decode().rstrip("\r\n")

    def cmd(self, text):
        self.s.sendall(text.encode() + b"\n")
        while True:
            line = self.line()
            if line.startswith("MSG "):
                self.pushed.append(parse(line))
            else:
                return line

    def msg(self):
        if self.pushed:
            return self.pushed.pop(0)
        line = self.line()
        assert line.startswith("MSG "), f"unexpected line {line!r}"
        return parse(line)

    def stats(self, q):
        return self.cmd(f"STATS {q}")

    def close(self):
        self.s.close()


def parse(line):
    _, q, i, red, payload = line.split(" ", 4)
    return q, int(i), int(red), payload


def qname():
    return "q." + "".join(RNG.choice("abcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(10))


def payload():
    return " ".join(RNG.choice(["job", "build #7", "résumé", "x", "ünïcödé ✓", "a  b"]) for _ in range(RNG.randrange(1, 5)))


def wait_unacked_zero(c, q):
    deadline = time.time() + 20
    while True:
        st = c.stats(q)
        if st.endswith("unacked=0") or time.time() > deadline:
            return st
        time.sleep(0.1)


def test_publish_ids_and_errors(broker):
    c = Client(broker)
    q1, q2 = qname(), qname()
    for i in range(1, 6):
        assert c.cmd(f"PUB {q1} {payload()}") == f"OK {i}"
    assert c.cmd(f"PUB {q2} only one") == "OK 1"
    assert c.stats(q1) == "OK ready=5 unacked=0"
    assert c.stats(qname()) == "OK ready=0 unacked=0"
    for bad in (f"PUB {q1}", f"PUB {q1} ", "PUB bad/name x", "PUB " + "a" * 65 + " x", f"SUB {q1} 0",
                f"SUB {q1} 1001", f"SUB {q1} many", f"ACK {q1} x", "HELLO", f"NACK {q1}"):
        assert c.cmd(bad).startswith("ERR"), bad
    assert c.cmd(f"PUB {q1} still works\r") == "OK 6"
    c.close()


def test_prefetch_window_and_ack_rules(broker):
    p, c, other = Client(broker), Client(broker), Client(broker)
    q = qname()
    sent = {i: payload() for i in range(1, 7)}
    for i, text in sent.items():
        assert p.cmd(f"PUB {q} {text}") == f"OK {i}"
    assert c.cmd(f"SUB {q} 2") == "OK"
    assert [c.msg() for _ in range(2)] == [(q, 1, 0, sent[1]), (q, 2, 0, sent[2])]
    assert c.stats(q) == "OK ready=4 unacked=2", "prefetch 2 allows only two messages out"
    assert other.cmd(f"ACK {q} 2") .startswith("ERR"), "only the receiving connection may ack"
    assert c.cmd(f"ACK {q} 1") == "OK"
    assert c.cmd(f"ACK {q} 1").startswith("ERR"), "a message can be acked once"
    assert c.cmd(f"ACK {q} 5").startswith("ERR"), "message 5 was not delivered yet"
    assert c.msg() == (q, 3, 0, sent[3])
    assert c.cmd(f"NACK {q} 2") == "OK"
    assert c.msg() == (q, 2, 1, sent[2]), "a nacked message comes back in id order, flagged redelivered"
    assert c.cmd(f"ACK {q} 2") == "OK" and c.cmd(f"ACK {q} 3") == "OK"
    assert [c.msg() for _ in range(2)] == [(q, 4, 0, sent[4]), (q, 5, 0, sent[5])]
    assert c.cmd(f"SUB {q} 3") == "OK"
    assert c.msg() == (q, 6, 0, sent[6])
    assert c.stats(q) == "OK ready=0 unacked=3"
    assert p.cmd(f"PUB {q} late") == "OK 7"
    assert p.stats(q) == "OK ready=1 unacked=3"
    for w in (p, c, other):
        w.close()


def test_nack_goes_before_higher_ids(broker):
    p, c1, c2 = Client(broker), Client(broker), Client(broker)
    q = qname()
    for i in range(1, 6):
        p.cmd(f"PUB {q} m{i}")
    assert c1.cmd(f"SUB {q} 1") == "OK"
    assert c1.msg()[1] == 1
    assert c2.cmd(f"SUB {q} 1") == "OK"
    assert c2.msg()[1] == 2
    assert c1.cmd(f"NACK {q} 1") == "OK"
    assert c1.msg() == (q, 1, 1, "m1")
    assert c2.cmd(f"NACK {q} 2") == "OK"
    assert c2.msg() == (q, 2, 1, "m2")
    assert c1.cmd(f"ACK {q} 1") == "OK"
    assert c1.msg() == (q, 3, 0, "m3")
    for w in (p, c1, c2):
        w.close()


def test_consumers_share_within_their_windows(broker):
    p = Client(broker)
    q = qname()
    n = 60
    for i in range(1, n + 1):
        p.cmd(f"PUB {q} work-{i}")
    seen, errors, done, clients = {}, [], threading.Event(), {}

    def work(name, prefetch):
        c = clients[name]
        got = seen[name] = []
        try:
            assert c.cmd(f"SUB {q} {prefetch}") == "OK"
            while True:
                m = c.msg()
                got.append(m[1])
                if len(c.pushed) + 1 > prefetch:
                    errors.append(f"{name}: {len(c.pushed) + 1} messages out with prefetch {prefetch}")
                assert m[3] == f"work-{m[1]}" and m[2] == 0
                assert c.cmd(f"ACK {q} {m[1]}") == "OK"
        except Exception as e:
            if not done.is_set():  # after done, the test closed the connection on purpose
                errors.append(f"{name}: {e!r}")

    for k in range(3):
        clients[f"w{k}"] = Client(broker)
    threads = [threading.Thread(target=work, args=(f"w{k}", k + 1)) for k in range(3)]
    for t in threads:
        t.start()
    deadline = time.time() + 120
    while time.time() < deadline and not errors:
        if p.stats(q) == "OK ready=0 unacked=0":
            break
        time.sleep(0.2)
    done.set()
    for c in clients.values():
        c.s.shutdown(socket.SHUT_RDWR)
    for t in threads:
        t.join(30)
    assert not errors, errors
    everything = sorted(sum(seen.values(), []))
    assert everything == list(range(1, n + 1)), "every message exactly once"
    for name, ids in seen.items():
        assert ids == sorted(ids), f"{name} got ids out of order"
    p.close()


def test_abandoned_messages_are_redelivered(broker):
    p, c1 = Client(broker), Client(broker)
    q = qname()
    for i in range(1, 6):
        p.cmd(f"PUB {q} job {i}")
    assert c1.cmd(f"SUB {q} 3") == "OK"
    assert [c1.msg()[1] for _ in range(3)] == [1, 2, 3]
    assert c1.cmd(f"ACK {q} 2") == "OK"
    assert c1.msg() == (q, 4, 0, "job 4"), "the freed window slot takes the next message"
    c1.s.shutdown(socket.SHUT_RDWR)
    c1.close()
    assert wait_unacked_zero(p, q) == "OK ready=4 unacked=0"
    c2 = Client(broker)
    assert c2.cmd(f"SUB {q} 10") == "OK"
    assert [c2.msg() for _ in range(4)] == [(q, 1, 1, "job 1"), (q, 3, 1, "job 3"), (q, 4, 1, "job 4"), (q, 5, 0, "job 5")]
    p.close(), c2.close()


def test_state_survives_sigkill(broker):
    assert broker, "the broker did not start listening"
    p, c = Client(broker), Client(broker)
    q, done_q = qname(), qname()
    texts = {i: payload() + f" #{i}" for i in range(1, 9)}
    for i in range(1, 8):
        assert p.cmd(f"PUB {q} {texts[i]}") == f"OK {i}"
    for i in range(1, 4):
        assert p.cmd(f"PUB {done_q} d{i}") == f"OK {i}"
    assert c.cmd(f"SUB {q} 4") == "OK"
    assert [c.msg()[1] for _ in range(4)] == [1, 2, 3, 4]
    assert c.cmd(f"ACK {q} 2") == "OK" and c.cmd(f"ACK {q} 4") == "OK"
    assert [c.msg()[1] for _ in range(2)] == [5, 6]
    assert c.cmd(f"ACK {q} 6") == "OK"
    assert c.msg()[1] == 7
    assert c.cmd(f"SUB {done_q} 5") == "OK"
    assert sorted(c.msg()[1] for _ in range(3)) == [1, 2, 3]
    for i in (1, 2, 3):
        assert c.cmd(f"ACK {done_q} {i}") == "OK"
    assert p.cmd(f"PUB {q} {texts[8]}") == "OK 8"
    broker.kill()  # right after the OK
    p.close(), c.close()
    assert broker.start(), "the broker did not start again on its data directory"
    c = Client(broker)
    assert c.stats(q) == "OK ready=5 unacked=0"
    assert c.cmd(f"SUB {q} 10") == "OK"
    got = [c.msg() for _ in range(5)]
    assert got == [(q, 1, 1, texts[1]), (q, 3, 1, texts[3]), (q, 5, 1, texts[5]), (q, 7, 1, texts[7]), (q, 8, 0, texts[8])]
    assert c.cmd(f"PUB {q} after restart") == "OK 9"
    assert c.msg() == (q, 9, 0, "after restart")
    assert c.stats(done_q) == "OK ready=0 unacked=0", "acknowledged messages never come back"
    assert c.cmd(f"PUB {done_q} next") == "OK 4", "ids are never reused"
    c.close()
