import hashlib
import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import threading
import time

import pytest

RNG = random.Random(4711)
USERS = {f"{n}{RNG.randrange(100, 999)}": RNG.randbytes(9).hex() for n in ("ana", "ben", "chidi")}
GW, NOTES_PORT = 8800, 8803
INTERNAL_KEY = open("/etc/stack/internal.key").read().strip()


def write_users():
    doc = {}
    for u, p in USERS.items():
        salt = RNG.randbytes(8)
        doc[u] = {"salt": salt.hex(), "sha256": hashlib.sha256(salt + p.encode()).hexdigest()}
    with open("/var/lib/stack/users.json", "w") as f:
        json.dump(doc, f)


def wait_port(port, secs=120):
    end = time.time() + secs
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.2)
    return False


class Stack:
    def __init__(self):
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(["bash", "/app/stack/start.sh"], cwd="/", start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_port(GW), "the gateway did not come up on 8800"
        assert wait_port(NOTES_PORT), "notesd did not come up on 8803"
        # the gateway may be up before authd: give logins a moment to work
        for _ in range(300):
            try:
                if call("POST", "/login", body={"user": "nobody", "password": "x"})[0] == 401:
                    break
            except OSError:
                pass
            time.sleep(0.2)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        # the stack's processes are in the start script's session
        subprocess.run(["pkill", "-KILL", "-s", str(self.proc.pid)], check=False)
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", GW), timeout=0.5).close()
                time.sleep(0.2)
            except OSError:
                break


def call(method, path, token=None, body=None, headers=None, port=GW):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    h = dict(headers or {})
    if token:
        h["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    if data is not None:
        h["Content-Type"] = "application/json"
    c.request(method, path, body=data, headers=h)
    r = c.getresponse()
    raw = r.read()
    c.close()
    try:
        return r.status, json.loads(raw) if raw else None
    except ValueError:
        return r.status, raw


@pytest.fixture(scope="module")
def stack():
    write_users()
    if os.path.exists("/var/lib/stack/notes.db"):
        os.unlink("/var/lib/stack/notes.db")
    s = Stack()
    s.start()
    yield s
    s.stop()


def login(u):
    st, b = call("POST", "/login", body={"user": u, "password": USERS[u]})
    assert st == 200, (st, b)
    return b["token"]


def test_login(stack):
    a, b, c = USERS
    assert isinstance(login(a), str)
    assert call("POST", "/login", body={"user": a, "password": USERS[b]})[0] == 401
    assert call("POST", "/login", body={"user": "ghost", "password": "x"})[0] == 401


def test_notes_roundtrip_and_tag_filter(stack):
    u = list(USERS)[0]
    t = login(u)
    ids = []
    for i, tag in enumerate(["work", "home", "work", None]):
        body = {"text": f"note {i} {RNG.randrange(10**6)}"} | ({"tag": tag} if tag else {})
        st, b = call("POST", "/notes", t, body)
        assert st == 201, (st, b)
        ids.append((b["id"], tag, body["text"]))
    st, b = call("GET", "/notes", t)
    assert st == 200
    assert [(n["id"], n["tag"], n["text"]) for n in b] == ids
    st, b = call("GET", "/notes?tag=work", t)
    assert st == 200 and [n["id"] for n in b] == [i for i, tag, _ in ids if tag == "work"]


def test_users_are_isolated(stack):
    a, b, _ = USERS
    ta, tb = login(a), login(b)
    st, made = call("POST", "/notes", tb, {"text": "bob's secret", "tag": "x"})
    assert st == 201
    assert all(n["text"] != "bob's secret" for n in call("GET", "/notes", ta)[1])
    assert call("DELETE", f"/notes/{made['id']}", ta)[0] == 404
    assert call("DELETE", f"/notes/{made['id']}", tb)[0] == 200
    assert all(n["id"] != made["id"] for n in call("GET", "/notes", tb)[1])


def test_identity_comes_only_from_the_token(stack):
    a, b, c = USERS
    tc = login(c)
    call("POST", "/notes", tc, {"text": "chidi only"})
    ta = login(a)
    st, got = call("GET", "/notes", ta, headers={"X-User": c})
    assert st == 200 and all(n["text"] != "chidi only" for n in got), "a client-sent X-User header was trusted"
    st, got = call("GET", "/notes", None, headers={"X-User": c})
    assert st == 401, "no token must mean 401, whatever the headers say"
    st, _ = call("GET", "/notes", "not-a-token")
    assert st == 401


def test_notesd_refuses_requests_without_the_internal_key(stack):
    assert call("GET", "/notes", headers={"X-User": list(USERS)[0]}, port=NOTES_PORT)[0] == 403
    assert call("GET", "/notes", headers={"X-User": list(USERS)[0], "X-Internal-Key": "guess"},
                port=NOTES_PORT)[0] == 403
    st, b = call("GET", "/notes", headers={"X-User": list(USERS)[0], "X-Internal-Key": INTERNAL_KEY},
                 port=NOTES_PORT)
    assert st == 200 and isinstance(b, list)


def test_logout_revokes_the_token(stack):
    u = list(USERS)[1]
    t, other = login(u), login(u)
    assert call("GET", "/notes", t)[0] == 200
    assert call("POST", "/logout", t)[0] == 200
    assert call("GET", "/notes", t)[0] == 401, "a logged-out token still works"
    assert call("GET", "/notes", other)[0] == 200, "logout must revoke only that token"


def test_concurrent_clients(stack):
    u = list(USERS)[2]
    t = login(u)
    before = len(call("GET", "/notes", t)[1])
    results = []

    def worker(k):
        for j in range(5):
            results.append(call("POST", "/notes", t, {"text": f"c{k}-{j}", "tag": "load"})[0])

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert results.count(201) == 40, results
    st, b = call("GET", "/notes?tag=load", t)
    assert st == 200 and sorted(n["text"] for n in b) == sorted(f"c{k}-{j}" for k in range(8) for j in range(5))
    assert len(call("GET", "/notes", t)[1]) == before + 40


def test_notes_persist_in_the_database_across_restarts(stack):
    u = list(USERS)[0]
    t = login(u)
    call("POST", "/notes", t, {"text": "survives restarts", "tag": "keep"})
    stack.stop()
    rows = sqlite3.connect("/var/lib/stack/notes.db").execute("SELECT text FROM notes").fetchall()
    assert ("survives restarts",) in rows
    stack.start()
    t = login(u)
    st, b = call("GET", "/notes?tag=keep", t)
    assert st == 200 and [n["text"] for n in b] == ["survives restarts"]
