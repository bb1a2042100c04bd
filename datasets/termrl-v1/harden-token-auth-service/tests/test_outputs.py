import base64
import hashlib
import hmac
import http.client
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

KEYS = {k: Path(f"/app/authsvc/keys/{k}").read_bytes() for k in ("main", "rotated")}


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def forge(header, payload, key, raw_sig=None):
    h = b64u(json.dumps(header).encode())
    p = b64u(json.dumps(payload).encode())
    sig = raw_sig if raw_sig is not None else b64u(hmac.new(key, f"{h}.{p}".encode(), hashlib.sha256).digest())
    return f"{h}.{p}.{sig}"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def port():
    p = free_port()
    proc = subprocess.Popen(["bash", "/app/authsvc/run.sh"], env=dict(os.environ, AUTH_PORT=str(p)), cwd="/",
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # A hang guard for the start-up, not a speed bar: a loaded machine may be slow.
    deadline, ok = time.time() + 60, False
    while time.time() < deadline and not ok:
        try:
            socket.create_connection(("127.0.0.1", p), timeout=0.5).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield p if ok else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def call(port, method, path, token=None, body=None):
    assert port, "service did not start"
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = json.dumps(body).encode() if body is not None else None
    if data is not None:
        headers["Content-Type"] = "application/json"
    c.request(method, path, body=data, headers=headers)
    r = c.getresponse()
    out = (r.status, json.loads(r.read() or b"null"))
    c.close()
    return out


def login(port, user, pw):
    return call(port, "POST", "/login", body={"user": user, "password": pw})


def now():
    return int(time.time())


def test_legitimate_flow(port):
    st, body = login(port, "alice", "correct horse")
    assert st == 200
    tok = body["token"]
    header = json.loads(base64.urlsafe_b64decode(tok.split(".")[0] + "=="))
    payload = json.loads(base64.urlsafe_b64decode(tok.split(".")[1] + "=="))
    assert header == {"alg": "HS256", "typ": "JWT", "kid": "main"}
    assert payload["exp"] - payload["iat"] == 900
    assert call(port, "GET", "/me", tok) == (200, {"user": "alice", "role": "user"})
    assert call(port, "GET", "/admin", tok)[0] == 403
    st, body = login(port, "root", "Adm1n!2025")
    assert call(port, "GET", "/admin", body["token"]) == (200, {"secret": "launch codes"})


def test_login_injection_and_bad_passwords(port):
    assert login(port, "alice", "wrong")[0] == 401
    assert login(port, "root' --", "x")[0] == 401
    assert login(port, "x' OR '1'='1' --", "x")[0] == 401
    assert login(port, "root", "' OR '1'='1")[0] == 401


def test_alg_none_rejected(port):
    tok = forge({"alg": "none", "typ": "JWT"}, {"sub": "eve", "role": "admin", "exp": now() + 600}, b"", raw_sig="")
    assert call(port, "GET", "/admin", tok)[0] == 401
    tok = forge({"alg": "HS512", "typ": "JWT", "kid": "main"}, {"sub": "eve", "role": "admin", "exp": now() + 600}, KEYS["main"])
    assert call(port, "GET", "/me", tok)[0] == 401


def test_expiry_enforced(port):
    old = forge({"alg": "HS256", "typ": "JWT", "kid": "main"}, {"sub": "alice", "role": "user", "iat": now() - 2000, "exp": now() - 1100}, KEYS["main"])
    assert call(port, "GET", "/me", old)[0] == 401
    noexp = forge({"alg": "HS256", "typ": "JWT", "kid": "main"}, {"sub": "alice", "role": "user"}, KEYS["main"])
    assert call(port, "GET", "/me", noexp)[0] == 401
    strexp = forge({"alg": "HS256", "typ": "JWT", "kid": "main"}, {"sub": "alice", "role": "user", "exp": "9999999999"}, KEYS["main"])
    assert call(port, "GET", "/me", strexp)[0] == 401


def test_kid_confinement_and_rotation(port):
    good = forge({"alg": "HS256", "typ": "JWT", "kid": "rotated"}, {"sub": "svc", "role": "service", "exp": now() + 300}, KEYS["rotated"])
    assert call(port, "GET", "/me", good) == (200, {"user": "svc", "role": "service"})
    evil = forge({"alg": "HS256", "typ": "JWT", "kid": "../../../proc/sys/kernel/ostype"},
                 {"sub": "eve", "role": "admin", "exp": now() + 300}, b"Linux\n")
    assert call(port, "GET", "/admin", evil)[0] == 401
    wrongkey = forge({"alg": "HS256", "typ": "JWT", "kid": "main"}, {"sub": "eve", "role": "admin", "exp": now() + 300}, KEYS["rotated"])
    assert call(port, "GET", "/admin", wrongkey)[0] == 401


def test_role_must_be_exact(port):
    st, body = login(port, "mallory", "mallory123")
    assert st == 200
    assert call(port, "GET", "/admin", body["token"])[0] == 403
    tampered = body["token"].split(".")
    payload = json.loads(base64.urlsafe_b64decode(tampered[1] + "=="))
    payload["role"] = "admin"
    tampered[1] = b64u(json.dumps(payload).encode())
    assert call(port, "GET", "/admin", ".".join(tampered))[0] == 401
