"""gateway: the public entry point. Logins go to authd; /notes requests are checked and forwarded to notesd."""
import configparser
import http.client
import json
import os
import socket
import sys
import socketserver
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

CONF = configparser.ConfigParser()
CONF.read(os.environ.get("STACK_CONF", "/app/stack/stack.conf"))
G = CONF["gateway"]
KEY = open(G["internal_key_file"]).read().strip()
NOTES = urlsplit(G["notes_url"])


def auth(req):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(G["auth_socket"])
    s.sendall((json.dumps(req) + "\n").encode())
    f = s.makefile("rb")
    resp = json.loads(f.readline())
    s.close()
    return resp


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def reply(self, code, body=b"", ctype="application/json"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length", 0)))

    def token(self):
        h = self.headers.get("Authorization", "")
        return h[7:] if h.startswith("Bearer ") else None

    def route(self, method):
        path = urlsplit(self.path).path
        if method == "POST" and path == "/login":
            data = json.loads(self.body() or b"{}")
            r = auth({"op": "login", "user": data.get("user", ""), "password": data.get("password", "")})
            if not r.get("ok"):
                return self.reply(401, b'{"error": "login failed"}')
            return self.reply(200, json.dumps({"token": r["token"]}).encode())
        if method == "POST" and path == "/logout":
            self.body()
            r = auth({"op": "logout", "token": self.token() or ""})
            return self.reply(200 if r.get("ok") else 401, b"{}")
        if path == "/notes" or path.startswith("/notes/"):
            user = self.headers.get("X-User")
            if not user:
                tok = self.token()
                r = auth({"op": "check", "token": tok}) if tok else {}
                if not r.get("ok"):
                    self.body()
                    return self.reply(401, b'{"error": "unauthorized"}')
                user = r["user"]
            return self.forward(method, path, user)
        self.body()
        self.reply(404, b'{"error": "not found"}')

    def forward(self, method, path, user):
        body = self.body()
        c = http.client.HTTPConnection(NOTES.hostname, NOTES.port, timeout=30)
        c.request(method, path, body=body or None,
                  headers={"X-User": user, "X-Internal-Key": KEY, "Content-Type": "application/json"})
        r = c.getresponse()
        data = r.read()
        c.close()
        self.reply(r.status, data)

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_DELETE(self):
        self.route("DELETE")

    def log_message(self, *a):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self):  # no reverse DNS lookup of the bind address
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]


if __name__ == "__main__":
    srv = Server(("127.0.0.1", int(G["port"])), Handler)
    print(f"gateway on {G['port']}", file=sys.stderr, flush=True)
    srv.serve_forever()
