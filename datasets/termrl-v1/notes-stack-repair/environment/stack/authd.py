"""authd: logins and session tokens, JSON lines over a UNIX socket."""
import configparser
import hashlib
import hmac
import json
import os
import socketserver
import sys
import time

CONF = configparser.ConfigParser()
CONF.read(os.environ.get("STACK_CONF", "/app/stack/stack.conf"))
A = CONF["auth"]
SECRET = open(A["secret_file"], "rb").read().strip()
TTL = int(A["ttl"])


def users():
    with open(A["users"]) as f:
        return json.load(f)


def sign(user, exp, nonce):
    msg = f"{user}.{exp}.{nonce}".encode()
    return hmac.new(SECRET, msg, hashlib.sha256).hexdigest()


class Handler(socketserver.StreamRequestHandler):
    def setup(self):
        super().setup()
        self.revoked = set()

    def handle(self):
        for line in self.rfile:
            try:
                req = json.loads(line)
                resp = self.dispatch(req)
            except (ValueError, KeyError, TypeError) as e:
                resp = {"ok": False, "error": f"bad request: {e}"}
            self.wfile.write((json.dumps(resp) + "\n").encode())
            self.wfile.flush()

    def dispatch(self, req):
        op = req["op"]
        if op == "login":
            u = users().get(req["user"])
            if not u:
                return {"ok": False}
            digest = hashlib.sha256(bytes.fromhex(u["salt"]) + req["password"].encode()).hexdigest()
            if not hmac.compare_digest(digest, u["sha256"]):
                return {"ok": False}
            exp, nonce = int(time.time()) + TTL, os.urandom(6).hex()
            return {"ok": True, "token": f"{req['user']}.{exp}.{nonce}.{sign(req['user'], exp, nonce)}"}
        if op in ("check", "logout"):
            try:
                user, exp, nonce, sig = req["token"].rsplit(".", 3)
                exp = int(exp)
            except ValueError:
                return {"ok": False}
            if not hmac.compare_digest(sig, sign(user, exp, nonce)) or exp < time.time() or sig in self.revoked:
                return {"ok": False}
            if op == "logout":
                self.revoked.add(sig)
            return {"ok": True, "user": user}
        return {"ok": False, "error": "unknown op"}


class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


if __name__ == "__main__":
    path = A["socket"]
    if os.path.exists(path):
        os.unlink(path)
    srv = Server(path, Handler)
    print(f"authd on {path}", file=sys.stderr, flush=True)
    srv.serve_forever()
