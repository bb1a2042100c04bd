import json
import os
import signal
import socket
import subprocess
import time

import pytest

RUN = "/app/kvserver/run.sh"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Server:
    def __init__(self, data):
        self.data = str(data)
        self.port = free_port()
        self.proc = None

    def start(self):
        env = dict(os.environ, KV_PORT=str(self.port), KV_DATA=self.data)
        self.proc = subprocess.Popen(["bash", RUN], env=env, start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # A hang guard for the start-up, not a speed bar: a loaded machine may be slow.
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        pytest.fail("server did not start listening")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=5)
            except Exception:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)

    def client(self):
        return Client(self.port)


class Client:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.f = self.sock.makefile("rb")

    def send(self, raw):
        self.sock.sendall(raw.encode() if isinstance(raw, str) else raw)

    def line(self):
        l = self.f.readline()
        assert l.endswith(b"\n"), f"incomplete response {l!r}"
        return l[:-1].decode()

    def cmd(self, c):
        self.send(c + "\n")
        return self.line()

    def close(self):
        self.sock.close()


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "store" / "kv.json")
    s.start()
    yield s
    s.stop()


def test_basic_commands(server):
    c = server.client()
    assert c.cmd("GET color") == "NIL"
    assert c.cmd("SET color deep  sea blue ") == "OK"
    assert c.cmd("GET color") == "VALUE deep  sea blue "
    assert c.cmd("set empty ") == "OK"
    assert c.cmd("get empty") == "VALUE "
    assert c.cmd("DEL color") == "DELETED"
    assert c.cmd("DEL color") == "NIL"
    assert c.cmd("GET color") == "NIL"
    assert c.cmd("QUIT") == "BYE"
    assert c.f.readline() == b""


def test_errors_keep_connection(server):
    c = server.client()
    assert c.cmd("FROB x") == "ERR unknown-command"
    assert c.cmd("") == "ERR unknown-command"
    assert c.cmd("GET") == "ERR bad-args"
    assert c.cmd("SET k") == "ERR bad-args"
    assert c.cmd("GET bad/key") == "ERR bad-key"
    assert c.cmd("SET " + "k" * 65 + " v") == "ERR bad-key"
    assert c.cmd("SET " + "k" * 64 + " v") == "OK"
    assert c.cmd("GET a.b-c_D9") == "NIL"


def test_incr(server):
    c = server.client()
    assert c.cmd("INCR hits") == "VALUE 1"
    assert c.cmd("INCR hits 41") == "VALUE 42"
    assert c.cmd("incr hits -50") == "VALUE -8"
    assert c.cmd("GET hits") == "VALUE -8"
    assert c.cmd("SET word seven") == "OK"
    assert c.cmd("INCR word") == "ERR not-integer"
    assert c.cmd("GET word") == "VALUE seven"
    assert c.cmd("INCR hits two") == "ERR bad-args"
    assert c.cmd("GET hits") == "VALUE -8"


def test_keys_and_pipelining_with_crlf(server):
    c = server.client()
    batch = "".join(f"SET {k} v{i}\r\n" for i, k in enumerate(["b.2", "a", "B", "b.10", "ab", "c"]))
    batch += "KEYS\r\nKEYS b.\r\nKEYS zzz\r\nGET ab\r\n"
    c.send(batch)
    got = [c.line() for _ in range(6)]
    assert got == ["OK"] * 6
    assert c.line() == "KEYS 6"
    assert [c.line() for _ in range(6)] == ["B", "a", "ab", "b.10", "b.2", "c"]
    assert c.line() == "KEYS 2"
    assert [c.line() for _ in range(2)] == ["b.10", "b.2"]
    assert c.line() == "KEYS 0"
    assert c.line() == "VALUE v4"


def test_idle_client_does_not_block(server):
    idle = server.client()
    idle.send("SET half")  # no newline: this client stalls mid-request
    other = server.client()
    other.sock.settimeout(3)
    assert other.cmd("SET x 1") == "OK"
    assert other.cmd("GET x") == "VALUE 1"
    idle.send(" done\n")
    assert idle.line() == "OK"


def test_concurrent_incr_is_atomic(server):
    clients = [server.client() for _ in range(8)]
    for c in clients:
        c.send("INCR counter\n" * 50)
    for c in clients:
        for _ in range(50):
            assert c.line().startswith("VALUE ")
    assert server.client().cmd("GET counter") == "VALUE 400"


def test_persistence_across_restart(tmp_path):
    s = Server(tmp_path / "d" / "kv.json")
    s.start()
    try:
        c = s.client()
        assert c.cmd("SET city Porto Alegre") == "OK"
        assert c.cmd("INCR n 5") == "VALUE 5"
        assert c.cmd("SET gone x") == "OK"
        assert c.cmd("DEL gone") == "DELETED"
        c.close()
    finally:
        s.stop()
    data = json.loads((tmp_path / "d" / "kv.json").read_text())
    assert data == {"city": "Porto Alegre", "n": "5"}
    s2 = Server(tmp_path / "d" / "kv.json")
    s2.start()
    try:
        c = s2.client()
        assert c.cmd("GET city") == "VALUE Porto Alegre"
        assert c.cmd("INCR n") == "VALUE 6"
        assert c.cmd("GET gone") == "NIL"
    finally:
        s2.stop()


def test_preloaded_data_file(tmp_path):
    p = tmp_path / "pre.json"
    p.write_text(json.dumps({"alpha": "1", "beta": "two words"}))
    s = Server(p)
    s.start()
    try:
        c = s.client()
        assert c.cmd("GET beta") == "VALUE two words"
        assert c.cmd("KEYS") == "KEYS 2"
    finally:
        s.stop()
