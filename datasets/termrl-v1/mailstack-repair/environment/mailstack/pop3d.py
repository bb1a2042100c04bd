"""mailstack pop3d: POP3 access to the Maildirs that smtpd delivers into."""
import hashlib
import hmac
import os
import socketserver
import threading

import json

CONF = json.load(open(os.environ.get("MAILSTACK_CONFIG", "/etc/mailstack/stack.json")))
ROOT = CONF.get("mail_root", "/var/mail")
LOCKS, LOCK = set(), threading.Lock()


def check(user, password):
    acc = CONF["users"].get(user)
    if not acc:
        return False
    digest = hashlib.sha256(bytes.fromhex(acc["salt"]) + password.encode()).hexdigest()
    return hmac.compare_digest(digest, acc["sha256"].lower())


def content(path):
    data = open(path, "rb").read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [l[:-1] if l.endswith(b"\r") else l for l in lines]


class Msg:
    def __init__(self, folder, name):
        self.folder, self.name = folder, name
        self.uid = name.split(":", 1)[0]
        self.path = os.path.join(folder, name)
        self.lines = content(self.path)
        self.size = os.path.getsize(self.path)
        self.deleted = self.seen = False


class Session(socketserver.StreamRequestHandler):
    def send(self, text):
        self.wfile.write(text.encode() + b"\r\n")

    def multi(self, first, lines):
        out = [first.encode()] + [b"." + l if l.startswith(b".") else l for l in lines] + [b"."]
        self.wfile.write(b"\r\n".join(out) + b"\r\n")

    def handle(self):
        self.user = self.pending = None
        self.msgs = None
        try:
            self.loop()
        finally:
            if self.msgs is not None:
                with LOCK:
                    LOCKS.discard(self.user)

    def get(self, args):
        try:
            n = int(args[0])
        except (IndexError, ValueError):
            return None
        if 1 <= n <= len(self.msgs) and not self.msgs[n - 1].deleted:
            return n, self.msgs[n - 1]
        return None

    def loop(self):
        self.send("+OK POP3 server ready")
        while True:
            raw = self.rfile.readline()
            if not raw:
                return
            parts = raw.decode("utf-8", "replace").rstrip("\r\n").split(" ")
            cmd, args = parts[0].upper(), [a for a in parts[1:] if a]
            pending, self.pending = self.pending, None
            if cmd == "QUIT":
                if self.msgs is not None:
                    self.update()
                self.send("+OK bye")
                return
            if self.msgs is None:
                if cmd == "USER" and len(args) == 1:
                    self.pending = args[0]
                    self.send("+OK")
                elif cmd == "PASS" and pending and len(parts) > 1:
                    password = raw.decode("utf-8", "replace").rstrip("\r\n").split(" ", 1)[1]
                    if not check(pending, password):
                        self.send("-ERR authentication failed")
                        continue
                    with LOCK:
                        if pending in LOCKS:
                            self.send("-ERR maildrop already locked")
                            continue
                        LOCKS.add(pending)
                    self.user = pending
                    self.load()
                    self.send(f"+OK {len(self.msgs)} messages")
                else:
                    self.send("-ERR")
                continue
            live = [(i + 1, m) for i, m in enumerate(self.msgs) if not m.deleted]
            if cmd == "STAT" and not args:
                self.send(f"+OK {len(live)} {sum(m.size for _, m in live)}")
            elif cmd in ("LIST", "UIDL"):
                val = (lambda m: m.size) if cmd == "LIST" else (lambda m: m.uid)
                if args:
                    got = self.get(args)
                    self.send(f"+OK {got[0]} {val(got[1])}" if got else "-ERR no such message")
                else:
                    self.multi("+OK", [f"{n} {val(m)}".encode() for n, m in live])
            elif cmd == "RETR" and len(args) == 1 and self.get(args):
                m = self.get(args)[1]
                m.seen = True
                self.multi(f"+OK {m.size} octets", m.lines)
            elif cmd == "TOP" and len(args) == 2 and self.get(args) and args[1].isdigit():
                lines = self.get(args)[1].lines
                head = lines.index(b"") if b"" in lines else len(lines)
                self.multi("+OK", lines[:head + 1 + int(args[1])])
            elif cmd == "DELE" and len(args) == 1 and self.get(args):
                m = self.get(args)[1]
                m.deleted = True
                os.unlink(m.path)
                self.send("+OK deleted")
            elif cmd == "RSET" and not args:
                for m in self.msgs:
                    m.deleted = m.deleted and not os.path.exists(m.path)
                self.send("+OK")
            elif cmd == "NOOP" and not args:
                self.send("+OK")
            else:
                self.send("-ERR")

    def load(self):
        msgs = []
        for sub in ("new", "cur"):
            folder = os.path.join(ROOT, self.user, sub)
            if os.path.isdir(folder):
                msgs += [Msg(folder, n) for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n))]
        self.msgs = sorted(msgs, key=lambda m: m.uid)

    def update(self):
        for m in self.msgs:
            if m.deleted:
                continue
            elif m.seen and os.path.basename(m.folder) == "new":
                cur = os.path.join(os.path.dirname(m.folder), "cur")
                os.makedirs(cur, exist_ok=True)
                os.rename(m.path, os.path.join(cur, m.uid + ":2,S"))


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    Server(("127.0.0.1", int(CONF["pop3_port"])), Session).serve_forever()
