"""HTTP clients written here drive the service; keys, values and write sequences are generated per test."""
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import threading
import time
from urllib.parse import urlencode

import pytest

TIMEOUT = 120  # hang guard for socket reads only


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


@pytest.fixture(scope="module", autouse=True)
def server():
    proc = subprocess.Popen(["bash", "/app/kvwatch/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, KV_PORT=str(PORT)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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


class Model:
    """The expected behaviour, kept in step with the writes the tests make."""

    def __init__(self):
        self.store, self.events, self.index = {}, [], 0

    def node(self, key):
        v, m, c = self.store[key]
        return {"key": key, "value": v, "modifiedIndex": m, "createdIndex": c}

    def is_dir(self, key):
        return key == "/" or any(k.startswith(key + "/") for k in self.store)

    def put(self, key, value, prev_exist=None, prev_index=None):
        prev = self.node(key) if key in self.store else None
        if prev_exist == "false" and prev:
            return 412, {"errorCode": 105}
        if (prev_exist == "true" or prev_index is not None) and not prev:
            return 404, {"errorCode": 100}
        if prev_index is not None and prev["modifiedIndex"] != prev_index:
            return 412, {"errorCode": 101}
        if self.is_dir(key):
            return 403, {"errorCode": 102}
        parts = key.split("/")
        if any("/".join(parts[:i]) in self.store for i in range(2, len(parts))):
            return 403, {"errorCode": 104}
        self.index += 1
        self.store[key] = (value, self.index, prev["createdIndex"] if prev else self.index)
        action = "compareAndSwap" if prev_index is not None else "create" if prev_exist == "false" else \
            "update" if prev_exist == "true" else "set"
        body = {"action": action, "node": self.node(key)}
        if prev:
            body["prevNode"] = prev
        self.events.append((self.index, key, body))
        return (200 if prev else 201), body

    def delete(self, key, prev_index=None):
        if key not in self.store:
            return (403, {"errorCode": 102}) if self.is_dir(key) else (404, {"errorCode": 100})
        prev = self.node(key)
        if prev_index is not None and prev["modifiedIndex"] != prev_index:
            return 412, {"errorCode": 101}
        self.index += 1
        del self.store[key]
        body = {"action": "compareAndDelete" if prev_index is not None else "delete",
                "node": {"key": key, "modifiedIndex": self.index, "createdIndex": prev["createdIndex"]}, "prevNode": prev}
        self.events.append((self.index, key, body))
        return 200, body

    def listing(self, key, recursive):
        base = "" if key == "/" else key
        kids = sorted({base + "/" + k[len(base) + 1:].split("/", 1)[0] for k in self.store if k.startswith(base + "/")})
        out = []
        for k in kids:
            if k in self.store:
                out.append(self.node(k))
            else:
                d = {"key": k, "dir": True}
                if recursive:
                    d["nodes"] = self.listing(k, True)
                out.append(d)
        return out

    def get(self, key, recursive=False):
        if key in self.store:
            return 200, {"action": "get", "node": self.node(key)}
        if self.is_dir(key):
            return 200, {"action": "get", "node": {"key": key, "dir": True, "nodes": self.listing(key, recursive)}}
        return 404, {"errorCode": 100}

    def first_event(self, key, start, recursive):
        for idx, k, body in self.events:
            if idx >= start and (k == key or (recursive and (key == "/" or k.startswith(key + "/")))):
                return body
        return None


M = Model()
LOCK = threading.Lock()


def call(method, key, query=None, form=None, conn=None):
    c = conn or http.client.HTTPConnection("127.0.0.1", PORT, timeout=TIMEOUT)
    path = "/v2/keys" + key + ("?" + urlencode(query) if query else "")
    body = urlencode(form) if form is not None else None
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = json.loads(r.read())
    index = r.getheader("X-Kv-Index")
    if conn is None:
        c.close()
    return r.status, data, int(index) if index is not None else None


def check(got, want, what):
    status, body, index = got
    wstatus, wbody = want
    assert status == wstatus, f"{what}: status {status}, expected {wstatus}: {body}"
    if "errorCode" in wbody:
        assert body.get("errorCode") == wbody["errorCode"], f"{what}: {body}"
    else:
        assert body == wbody, f"{what}:\n got  {body}\n want {wbody}"
    assert index == M.index, f"{what}: X-Kv-Index {index}, expected {M.index}"


def put(key, value, **kw):
    q = {}
    if "prev_exist" in kw:
        q["prevExist"] = kw["prev_exist"]
    if "prev_index" in kw:
        q["prevIndex"] = kw["prev_index"]
    with LOCK:
        got = call("PUT", key, q, {"value": value})
        check(got, M.put(key, value, kw.get("prev_exist"), kw.get("prev_index")), f"PUT {key} {q}")


def delete(key, **kw):
    q = {"prevIndex": kw["prev_index"]} if "prev_index" in kw else {}
    with LOCK:
        check(call("DELETE", key, q), M.delete(key, kw.get("prev_index")), f"DELETE {key} {q}")


def get(key, recursive=False):
    check(call("GET", key, {"recursive": "true"} if recursive else None), M.get(key, recursive), f"GET {key}")


def test_set_get_and_indexes():
    rng = random.Random(1)
    keys = ["/app/db/host", "/app/db/port", "/app/name", "/flags/a", "/flags/b-%d" % rng.randrange(99)]
    for i in range(30):
        put(rng.choice(keys), "v%d %s" % (i, rng.choice(["plain", "with spaces & symbols=?/", "ünï"])))
    for k in keys + ["/missing", "/app/db/host/deeper"]:
        get(k)
    delete("/app/name")
    get("/app/name")
    put("/app/name", "again")  # created again: a new createdIndex
    get("/app/name")


def test_conditional_writes():
    put("/cas/x", "1")
    idx = M.store["/cas/x"][1]
    put("/cas/x", "2", prev_index=idx)
    put("/cas/x", "3", prev_index=idx)  # stale: 412
    put("/cas/x", "4", prev_exist="false")  # exists: 412
    put("/cas/y", "5", prev_exist="true")  # missing: 404
    put("/cas/y", "6", prev_exist="false")
    put("/cas/y", "7", prev_exist="true")
    put("/cas/z", "8", prev_index=1)  # missing: 404
    delete("/cas/x", prev_index=idx)  # stale: 412
    delete("/cas/x", prev_index=M.store["/cas/x"][1])
    delete("/cas/x")  # gone: 404


def test_directories():
    rng = random.Random(3)
    for i in range(25):
        parts = [rng.choice(["svc", "cfg"]), rng.choice(["eu", "us", "ap"]), rng.choice(["a", "b", "c", "d"])]
        put("/tree/" + "/".join(parts[:rng.randrange(2, 4)]), str(i))
    for k in ["/tree", "/tree/svc", "/tree/cfg/eu", "/"]:
        get(k)
        get(k, recursive=True)
    put("/tree/svc", "oops")  # a directory: 403
    if "/tree/svc/eu/a" not in M.store and not M.is_dir("/tree/svc/eu/a"):
        put("/tree/svc/eu/a", "x")
    put("/tree/svc/eu/a/deeper", "x")  # below a key: 403
    delete("/tree/cfg")  # a directory: 403


def watch_async(key, query):
    out = {}

    def run():
        try:
            out["resp"] = call("GET", key, dict(query, wait="true"))
        except Exception as e:  # noqa: BLE001 - reported by the caller
            out["error"] = repr(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, out


def test_watches_block_until_the_next_event():
    put("/w/one", "start")
    before = M.index
    after = {"waitIndex": before + 1}
    waiters = [watch_async("/w/one", after), watch_async("/w", dict(after, recursive="true")), watch_async("/w/two", after)]
    get("/w/one")  # other requests are served while watches wait
    put("/w/other", "x")  # not /w/one or /w/two; the recursive watch fires on this one
    put("/w/one", "changed")
    delete("/w/one")
    put("/w/two", "hello")
    expected = [M.first_event("/w/one", before + 1, False), M.first_event("/w", before + 1, True),
                M.first_event("/w/two", before + 1, False)]
    for (t, out), want in zip(waiters, expected):
        t.join(TIMEOUT + 10)
        assert "resp" in out, out.get("error", "the watch never returned")
        status, body, _ = out["resp"]
        assert status == 200 and body == want, f"watch got {body}, expected {want}"


def test_watch_without_wait_index_ignores_the_past():
    put("/nw/key", "old")
    mark = M.index
    t, out = watch_async("/nw/key", {})
    for i in range(1000):  # write until the watch answers; which write it sees depends on when it arrived
        put("/nw/key", "new-%d" % i)
        t.join(0.2)
        if not t.is_alive():
            break
    assert "resp" in out, out.get("error", "the watch never returned")
    status, body, _ = out["resp"]
    idx = body.get("node", {}).get("modifiedIndex", 0)
    assert status == 200 and idx > mark, f"a watch without waitIndex waits for a new event, got {body}"
    assert body == next(b for i, k, b in M.events if i == idx)


def test_watch_history_with_wait_index():
    rng = random.Random(5)
    start = M.index + 1
    for i in range(20):
        k = rng.choice(["/h/a", "/h/b", "/h/sub/c"])
        if k in M.store and rng.random() < 0.3:
            delete(k)
        else:
            put(k, "h%d" % i)
    for key, rec in (("/h/a", False), ("/h/b", False), ("/h", True), ("/h/sub", True), ("/", True)):
        for wait_index in sorted({start, start + 3, start + 7, start + 12, M.index}):
            want = M.first_event(key, wait_index, rec)
            if want is None:
                continue
            status, body, _ = call("GET", key, {"wait": "true", "waitIndex": wait_index, **({"recursive": "true"} if rec else {})})
            assert status == 200 and body == want, f"watch {key} waitIndex={wait_index}: {body} != {want}"
    t, out = watch_async("/h/a", {"waitIndex": M.index + 1})
    put("/h/b", "not this")
    put("/h/a", "this")
    t.join(TIMEOUT + 10)
    assert out["resp"][1] == M.first_event("/h/a", M.index, False)


def test_many_waiters_one_write_and_keepalive():
    waiters = [watch_async("/fan/key", {"waitIndex": M.index + 1}) for _ in range(12)]
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=TIMEOUT)
    for i in range(5):  # several requests on one keep-alive connection while the watches wait
        with LOCK:
            check(call("PUT", "/fan/other%d" % i, None, {"value": str(i)}, conn=conn), M.put("/fan/other%d" % i, str(i)), "PUT")
    put("/fan/key", "go")
    want = M.first_event("/fan/key", M.index, False)
    for t, out in waiters:
        t.join(TIMEOUT + 10)
        assert out.get("resp", (None, None))[1] == want
    conn.close()
