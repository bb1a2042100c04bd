"""mailstack smtpd: inbound SMTP, delivers into the Maildirs that pop3d serves."""
import itertools
import json
import os
import re
import socket
import socketserver
import time

CONF = json.load(open(os.environ.get("MAILSTACK_CONFIG", "/etc/mailstack/stack.json")))
HOST = CONF["hostname"]
DOMAINS = set(CONF["domains"])
USERS = {u.lower() for u in CONF["users"]}
ALIASES = {k.lower(): [v.lower() for v in vs] for k, vs in CONF["aliases"].items()}
MAX = int(CONF["max_size"])
ROOT = CONF["maildir_root"]
MAIL_RE = re.compile(r"MAIL FROM:\s?(<[^<>\s]*>)((?:\s+\S+)*)\s*\Z", re.I)
RCPT_RE = re.compile(r"RCPT TO:\s?<([^<>@\s]+)@([^<>@\s]+)>\s*\Z", re.I)
COUNTER = itertools.count()


def expand(name, out):
    if name in USERS:
        out.add(name)
    for n in ALIASES.get(name, ()):
        if n in USERS:
            out.add(n)


def deliver(users, sender, data):
    for u in sorted(users):
        base = os.path.join(ROOT, u)
        for d in ("tmp", "new", "cur"):
            os.makedirs(os.path.join(base, d), exist_ok=True)
        name = f"{time.time():.6f}.{os.getpid()}_{next(COUNTER)}.{HOST}"
        tmp = os.path.join(base, "tmp", name)
        with open(tmp, "wb") as f:
            # stored with Unix line ends (pop3d turns them back into CRLF)
            f.write((b"Return-Path: " + sender.encode() + b"\r\n" + data).replace(b"\r\n", b"\n"))
        os.rename(tmp, os.path.join(base, "new", name))


class Session(socketserver.StreamRequestHandler):
    def reply(self, text):
        self.wfile.write((text + "\r\n").encode())
        self.wfile.flush()

    def handle(self):
        self.helo = False
        self.sender = None
        self.rcpts = set()
        self.reply(f"220 {HOST} ESMTP mailrx")
        while True:
            raw = self.rfile.readline()
            if not raw:
                return
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            verb = line.split(" ", 1)[0].upper()
            if verb in ("HELO", "EHLO"):
                self.helo, self.sender, self.rcpts = True, None, set()
                if verb == "HELO":
                    self.reply(f"250 {HOST}")
                else:
                    self.reply(f"250-{HOST}\r\n250-SIZE {MAX}\r\n250 8BITMIME")
            elif verb == "MAIL":
                if not self.helo or self.sender is not None:
                    self.reply("503 bad sequence of commands")
                    continue
                m = MAIL_RE.match(line)
                if not m:
                    self.reply("501 syntax: MAIL FROM:<address>")
                    continue
                size = None
                for p in m.group(2).split():
                    k, _, v = p.partition("=")
                    if k.upper() == "SIZE" and v.isdigit():
                        size = int(v)
                if size is not None and size > MAX:
                    self.reply("552 message size exceeds fixed maximum")
                    continue
                self.sender, self.rcpts = m.group(1), set()
                self.reply("250 ok")
            elif verb == "RCPT":
                if self.sender is None:
                    self.reply("503 need MAIL first")
                    continue
                m = RCPT_RE.match(line)
                if not m:
                    self.reply("501 syntax: RCPT TO:<address>")
                    continue
                local, domain = m.group(1).lower(), m.group(2).lower()
                if domain not in DOMAINS:
                    self.reply("550 relaying denied")
                elif local not in USERS and local not in ALIASES:
                    self.reply("550 no such user")
                else:
                    self.rcpts.add(local)
                    self.reply("250 ok")
            elif verb == "DATA":
                if not self.rcpts:
                    self.reply("503 need RCPT first")
                    continue
                self.reply("354 end data with <CR><LF>.<CR><LF>")
                chunks, size = [], 0
                while True:
                    raw = self.rfile.readline()
                    if not raw:
                        return
                    body = raw.rstrip(b"\r\n")
                    if body == b".":
                        break
                    size += len(body) + 2
                    if size <= MAX:
                        chunks.append(body + b"\r\n")
                if size > MAX:
                    self.reply("552 message size exceeds fixed maximum")
                else:
                    users = set()
                    for r in self.rcpts:
                        expand(r, users)
                    deliver(users, self.sender, b"".join(chunks))
                    self.reply("250 ok delivered")
                self.sender, self.rcpts = None, set()
            elif verb == "RSET":
                self.sender, self.rcpts = None, set()
                self.reply("250 ok")
            elif verb == "NOOP":
                self.reply("250 ok")
            elif verb == "VRFY":
                self.reply("252 cannot verify")
            elif verb == "QUIT":
                self.reply(f"221 {HOST} closing")
                return
            else:
                self.reply("500 command unrecognized")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    Server(("127.0.0.1", int(CONF["smtp_port"])), Session).serve_forever()
