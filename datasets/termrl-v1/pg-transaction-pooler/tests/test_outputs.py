"""A fake PostgreSQL server and PostgreSQL clients written here exercise the pooler; users, passwords and payloads are generated per run."""
import hashlib
import itertools
import os
import random
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
RNG = random.Random(5432)
USERS = {"app": "s3cret-%d" % RNG.randrange(10 ** 6), "report": "r-%d!x" % RNG.randrange(10 ** 6), "ops": "o p %d" % RNG.randrange(99)}
DIR = tempfile.mkdtemp(prefix="pooler")
POOL_SIZE = 2


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def msg(t, body=b""):
    return t + struct.pack(">I", len(body) + 4) + body


def md5_password(user, password, salt):
    inner = hashlib.md5((password + user).encode()).hexdigest()
    return "md5" + hashlib.md5(inner.encode() + salt).hexdigest()


class Stream:
    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def exact(self, n):
        while len(self.buf) < n:
            d = self.sock.recv(65536)
            if not d:
                raise EOFError
            self.buf += d
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def message(self):
        t = self.exact(1)
        (n,) = struct.unpack(">I", self.exact(4))
        return t, self.exact(n - 4)


class FakePostgres:
    """Counts connections per (user, database) and logs every query with the backend pid that ran it."""

    def __init__(self):
        self.lock = threading.Lock()
        self.pids = itertools.count(7001)
        self.open, self.peak, self.total = {}, {}, {}
        self.log = []  # (pid, user, database, query)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            conn, _ = self.sock.accept()
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn):
        st = Stream(conn)
        key = None
        try:
            (n,) = struct.unpack(">I", st.exact(4))
            body = st.exact(n - 4)
            assert struct.unpack(">I", body[:4])[0] == 196608
            items = body[4:].split(b"\0")
            params = dict(zip(items[0::2], items[1::2]))
            user, db = params[b"user"].decode(), params.get(b"database", params[b"user"]).decode()
            salt = os.urandom(4)
            conn.sendall(msg(b"R", struct.pack(">I", 5) + salt))
            t, body = st.message()
            if t != b"p" or body.rstrip(b"\0").decode() != md5_password(user, USERS.get(user, "?"), salt):
                conn.sendall(msg(b"E", b"SFATAL\0C28P01\0Mbad password\0\0"))
                return
            pid = next(self.pids)
            key = (user, db)
            with self.lock:
                self.open[key] = self.open.get(key, 0) + 1
                self.peak[key] = max(self.peak.get(key, 0), self.open[key])
                self.total[key] = self.total.get(key, 0) + 1
            conn.sendall(msg(b"R", struct.pack(">I", 0)) + msg(b"S", b"server_version\x0016.1\0")
                         + msg(b"K", struct.pack(">II", pid, 99)) + msg(b"Z", b"I"))
            state = "I"
            while True:
                t, body = st.message()
                if t == b"X":
                    return
                q = body.rstrip(b"\0").decode()
                with self.lock:
                    self.log.append((pid, user, db, q))
                out, state = self.run(q.strip(), state, pid)
                conn.sendall(out + msg(b"Z", state.encode()))
        except (EOFError, OSError):
            pass
        finally:
            conn.close()
            if key:
                with self.lock:
                    self.open[key] -= 1

    @staticmethod
    def run(q, state, pid):
        up = q.upper()
        if up == "ROLLBACK":
            return msg(b"C", b"ROLLBACK\0"), "I"
        if state == "E":
            if up == "COMMIT":
                return msg(b"C", b"ROLLBACK\0"), "I"
            return msg(b"E", b"SERROR\0C25P02\0Mcurrent transaction is aborted\0\0"), "E"
        if up == "BEGIN":
            return msg(b"C", b"BEGIN\0"), "T"
        if up == "COMMIT":
            return msg(b"C", b"COMMIT\0"), "I"
        if up == "SELECT PG_BACKEND_PID()":
            return row(b"pg_backend_pid", str(pid).encode()), state
        if up.startswith("SELECT ECHO('") and up.endswith("')"):
            return row(b"echo", q[13:-2].encode()), state
        return msg(b"E", b"SERROR\0C42601\0Msyntax error\0\0"), ("E" if state == "T" else state)


def row(name, value):
    desc = struct.pack(">H", 1) + name + b"\0" + struct.pack(">IhIhih", 0, 0, 25, -1, -1, 0)
    return msg(b"T", desc) + msg(b"D", struct.pack(">HI", 1, len(value)) + value) + msg(b"C", b"SELECT 1\0")


PG = FakePostgres()
PORT = free_port()


@pytest.fixture(scope="module", autouse=True)
def pooler():
    with open(f"{DIR}/users.txt", "w") as f:
        f.write("# user password\n" + "".join(f"{u} {p}\n" for u, p in USERS.items()))
    proc = subprocess.Popen(["bash", "/app/pooler/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, POOLER_PORT=str(PORT), PG_HOST="127.0.0.1", PG_PORT=str(PG.port),
                                     POOL_SIZE=str(POOL_SIZE), POOL_USERS=f"{DIR}/users.txt"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 240  # hang guard only
    while time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
            break
        except OSError:
            time.sleep(0.2)
    yield
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


class Client:
    def __init__(self, user="app", database="shop", password=None, ssl_first=False, expect_ok=True):
        self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
        self.st = Stream(self.sock)
        if ssl_first:
            self.sock.sendall(struct.pack(">II", 8, 80877103))
            assert self.st.exact(1) == b"N", "SSLRequest must be declined with a single 'N'"
        params = b"user\0" + user.encode() + b"\0" + (b"database\0" + database.encode() + b"\0" if database else b"")
        params += b"application_name\0termrl-test\0\0"
        self.sock.sendall(struct.pack(">II", len(params) + 8, 196608) + params)
        t, body = self.st.message()
        assert t == b"R" and struct.unpack(">I", body[:4])[0] == 5 and len(body) == 8, "expected an MD5 password request"
        pw = password if password is not None else USERS[user]
        self.sock.sendall(msg(b"p", md5_password(user, pw, body[4:8]).encode() + b"\0"))
        if not expect_ok:
            t, body = self.st.message()
            assert t == b"E" and b"C28P01\0" in body, f"expected error 28P01, got {t} {body!r}"
            return
        got_ok = False
        while True:
            t, body = self.st.message()
            assert t != b"E", f"login failed: {body!r}"
            if t == b"R":
                assert struct.unpack(">I", body[:4])[0] == 0
                got_ok = True
            if t == b"Z":
                assert got_ok and body == b"I"
                return

    def query(self, q):
        self.sock.sendall(msg(b"Q", q.encode() + b"\0"))
        return self.result()

    def result(self):
        rows, tags, errors = [], [], []
        while True:
            t, body = self.st.message()
            if t == b"D":
                (n,) = struct.unpack(">I", body[2:6])
                rows.append(body[6:6 + n].decode())
            elif t == b"C":
                tags.append(body.rstrip(b"\0").decode())
            elif t == b"E":
                errors.append([f[1:].decode() for f in body.split(b"\0") if f[:1] == b"C"][0])
            elif t == b"Z":
                return {"rows": rows, "tags": tags, "errors": errors, "status": body.decode()}

    def pid(self):
        r = self.query("SELECT pg_backend_pid()")
        assert not r["errors"], r
        return int(r["rows"][0])

    def close(self, terminate=True):
        if terminate:
            self.sock.sendall(msg(b"X"))
        self.sock.close()


def test_login_rules():
    c = Client("app", "shop")
    assert c.pid() > 7000
    c.close()
    Client("app", "shop", password="wrong", expect_ok=False)
    Client("nobody", "shop", password="x", expect_ok=False)
    d = Client("report", "warehouse", ssl_first=True)
    assert d.query("SELECT echo('hi')")["rows"] == ["hi"]
    d.close()
    e = Client("ops", None)  # no database: it defaults to the user name
    e.pid()
    e.close()
    assert ("ops", "ops") in PG.total and all(k[0] in USERS for k in PG.total)


def test_concurrent_autocommit_clients_share_the_pool():
    errors = []

    def run(i):
        try:
            c = Client("app", "shop")
            for j in range(25):
                text = "c%d-%d-%s" % (i, j, "x" * RNG.randrange(0, 50))
                r = c.query(f"SELECT echo('{text}')")
                assert r == {"rows": [text], "tags": ["SELECT 1"], "errors": [], "status": "I"}, r
            c.close()
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert PG.peak[("app", "shop")] <= POOL_SIZE, f"{PG.peak[('app', 'shop')]} server connections at once, POOL_SIZE is {POOL_SIZE}"
    assert PG.total[("app", "shop")] <= POOL_SIZE, "server connections are reused, not reopened"


def test_transactions_are_pinned_and_clients_wait_in_order():
    a, b, c, d = (Client("app", "shop") for _ in range(4))
    assert a.query("BEGIN")["status"] == "T"
    pa = [a.pid() for _ in range(3)]
    assert len(set(pa)) == 1, "a transaction stays on one server connection"
    assert b.query("BEGIN")["status"] == "T"
    pb = b.pid()
    assert pb != pa[0]
    c.sock.sendall(msg(b"Q", b"SELECT pg_backend_pid()\0"))  # both connections are busy: c waits
    assert a.query("COMMIT") == {"rows": [], "tags": ["COMMIT"], "errors": [], "status": "I"}
    rc = c.result()
    assert rc["rows"] == [str(pa[0])], "the waiting client gets the connection that was released"
    assert b.query("SELECT pg_backend_pid()")["rows"] == [str(pb)]
    assert b.query("COMMIT")["status"] == "I"
    assert d.query("SELECT echo('d')")["rows"] == ["d"]
    for x in (a, b, c, d):
        x.close()


def test_failed_and_abandoned_transactions():
    a = Client("app", "shop")
    assert a.query("BEGIN")["status"] == "T"
    p = a.pid()
    r = a.query("SELECT broken syntax")
    assert r["errors"] == ["42601"] and r["status"] == "E"
    r = a.query("SELECT pg_backend_pid()")
    assert r["errors"] == ["25P02"] and r["status"] == "E", "a failed transaction keeps its server connection"
    assert a.query("ROLLBACK")["status"] == "I"
    for abandon in ("terminate", "drop"):
        x = Client("app", "shop")
        assert x.query("BEGIN")["status"] == "T"
        px = x.pid()
        before = len(PG.log)
        x.close(terminate=abandon == "terminate")
        clients = [Client("app", "shop") for _ in range(2)]
        for c in clients:  # the second one gets the abandoned connection once the pooler has cleaned it up
            r = c.query("BEGIN")
            assert r["status"] == "T", "a connection is returned to the pool only outside a transaction"
        assert px in [c.pid() for c in clients]
        after = [e[3].upper() for e in PG.log[before:] if e[0] == px]
        assert after[:2] == ["ROLLBACK", "BEGIN"], f"the abandoned transaction must be rolled back first: {after}"
        for c in clients:
            assert c.query("COMMIT")["status"] == "I"
            c.close()
    assert PG.peak[("app", "shop")] <= POOL_SIZE


def test_separate_pools_per_user_and_database():
    pairs = [("app", "shop"), ("app", "audit"), ("report", "shop")]
    clients = {k: [Client(*k) for _ in range(3)] for k in pairs}
    for k, cs in clients.items():
        for c in cs[:2]:
            assert c.query("BEGIN")["status"] == "T"
    pids = {k: {c.pid() for c in cs[:2]} for k, cs in clients.items()}
    assert sum(len(v) for v in pids.values()) == 6, "each (user, database) pair has its own connections"
    for k, cs in clients.items():
        for c in cs[:2]:
            c.query("COMMIT")
        assert cs[2].pid() in pids[k]
    for (pid, user, db, q) in PG.log:
        for k, v in pids.items():
            if pid in v:
                assert (user, db) == k
    for cs in clients.values():
        for c in cs:
            c.close()
    for k in pairs:
        assert PG.peak[k] <= POOL_SIZE


def test_large_rows_and_pipelined_queries():
    c = Client("report", "warehouse")
    big = "".join(RNG.choice("abcdefghij") for _ in range(300000))
    c.sock.sendall(msg(b"Q", f"SELECT echo('{big}')".encode() + b"\0") + msg(b"Q", b"SELECT echo('second')\0"))
    assert c.result()["rows"] == [big]
    assert c.result()["rows"] == ["second"]
    c.close()
