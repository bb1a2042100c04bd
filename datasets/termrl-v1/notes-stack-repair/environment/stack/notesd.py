"""notesd: per-user notes in SQLite; trusts X-User only from the gateway (X-Internal-Key)."""
import configparser
import hmac
import json
import os
import sqlite3
import sys
import socketserver
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

CONF = configparser.ConfigParser()
CONF.read(os.environ.get("STACK_CONF", "/app/stack/stack.conf"))
N = CONF["notes"]
KEY = open(N["internal_key_file"]).read()
DB = sqlite3.connect(N["db"])
DB.execute("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, owner TEXT, tag TEXT, text TEXT)")
DB.commit()


class Handler(BaseHTTPRequestHandler):
    def reply(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def user(self):
        if not hmac.compare_digest(self.headers.get("X-Internal-Key", ""), KEY):
            self.reply(403, {"error": "forbidden"})
            return None
        return self.headers.get("X-User")

    def do_GET(self):
        u = self.user()
        if u is None:
            return
        url = urlsplit(self.path)
        if url.path != "/notes":
            return self.reply(404, {"error": "not found"})
        tag = parse_qs(url.query).get("tag", [None])[0]
        rows = DB.execute("SELECT id, tag, text FROM notes WHERE owner = ? AND (? IS NULL OR tag = ?) ORDER BY id",
                          (u, tag, tag)).fetchall()
        self.reply(200, [{"id": i, "tag": t, "text": x} for i, t, x in rows])

    def do_POST(self):
        u = self.user()
        if u is None:
            return
        if self.path != "/notes":
            return self.reply(404, {"error": "not found"})
        data = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if not isinstance(data.get("text"), str):
            return self.reply(400, {"error": "text required"})
        cur = DB.execute("INSERT INTO notes (owner, tag, text) VALUES (?, ?, ?)", (u, data.get("tag"), data["text"]))
        DB.commit()
        self.reply(201, {"id": cur.lastrowid})

    def do_DELETE(self):
        u = self.user()
        if u is None:
            return
        parts = self.path.split("/")
        if len(parts) != 3 or parts[1] != "notes" or not parts[2].isdigit():
            return self.reply(404, {"error": "not found"})
        cur = DB.execute("DELETE FROM notes WHERE id = ? AND owner = ?", (int(parts[2]), u))
        DB.commit()
        self.reply(200 if cur.rowcount else 404, {"deleted": int(parts[2])} if cur.rowcount else {"error": "not found"})

    def log_message(self, *a):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self):  # no reverse DNS lookup of the bind address
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]


if __name__ == "__main__":
    srv = Server(("127.0.0.1", int(N["port"])), Handler)
    print(f"notesd on {N['port']}", file=sys.stderr, flush=True)
    srv.serve_forever()
