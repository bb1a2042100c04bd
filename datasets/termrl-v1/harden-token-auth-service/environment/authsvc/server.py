"""authsvc: issues and checks HS256 tokens (JWT compact format)."""
import base64
import hashlib
import hmac
import http.server
import json
import os
import sqlite3
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PORT = int(os.environ.get("AUTH_PORT", "8700"))
DB = os.path.join(HERE, "users.db")
ACTIVE_KID = "main"
TTL = 900


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def b64u_dec(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def load_key(kid):
    with open(os.path.join(HERE, "keys", kid), "rb") as fh:
        return fh.read()


def issue(user, role):
    header = {"alg": "HS256", "typ": "JWT", "kid": ACTIVE_KID}
    now = int(time.time())
    payload = {"sub": user, "role": role, "iat": now, "exp": now + TTL}
    signing = b64u(json.dumps(header).encode()) + "." + b64u(json.dumps(payload).encode())
    sig = hmac.new(load_key(ACTIVE_KID), signing.encode(), hashlib.sha256).digest()
    return signing + "." + b64u(sig)


def verify(token):
    try:
        h64, p64, s64 = token.split(".")
        header = json.loads(b64u_dec(h64))
        payload = json.loads(b64u_dec(p64))
    except Exception:
        return None
    if header.get("alg") == "none":
        return payload
    key = load_key(header.get("kid", ACTIVE_KID))
    want = hmac.new(key, (h64 + "." + p64).encode(), hashlib.sha256).digest()
    if b64u(want) == s64:
        return payload
    return None


def check_login(user, password):
    db = sqlite3.connect(DB)
    pw_hash = hashlib.sha256(password.encode()).hexdigest()
    row = db.execute(f"SELECT name, role FROM users WHERE name = '{user}' AND pw_sha256 = '{pw_hash}'").fetchone()
    return row


class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def reply(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def claims(self):
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return None
        return verify(auth[7:])

    def do_POST(self):
        if self.path != "/login":
            return self.reply(404, {"error": "not found"})
        n = int(self.headers.get("Content-Length") or 0)
        try:
            data = json.loads(self.rfile.read(n) or b"{}")
            row = check_login(str(data.get("user", "")), str(data.get("password", "")))
        except Exception:
            return self.reply(400, {"error": "bad request"})
        if not row:
            return self.reply(401, {"error": "invalid credentials"})
        self.reply(200, {"token": issue(row[0], row[1])})

    def do_GET(self):
        if self.path not in ("/me", "/admin"):
            return self.reply(404, {"error": "not found"})
        c = self.claims()
        if c is None:
            return self.reply(401, {"error": "invalid token"})
        if self.path == "/me":
            return self.reply(200, {"user": c.get("sub"), "role": c.get("role")})
        if "admin" in str(c.get("role")):
            return self.reply(200, {"secret": "launch codes"})
        return self.reply(403, {"error": "forbidden"})


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", PORT), H).serve_forever()
