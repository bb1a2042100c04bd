#!/bin/bash
set -euo pipefail
mkdir -p /app/nntp
cat > /app/nntp/server.py <<'PY'
"""nntplite: an NNTP reader/posting server (RFC 3977 subset) with a persistent spool."""
import json
import os
import re
import socket
import threading
import time

PORT = int(os.environ.get("NNTP_PORT", "1119"))
SPOOL = os.environ.get("NNTP_SPOOL", "/var/spool/nntplite")
GROUPS_FILE = os.environ.get("NNTP_GROUPS", "/etc/nntplite/groups")
LOCK = threading.Lock()
SEQ = [0]

GROUPS = {}
for line in open(GROUPS_FILE, encoding="utf-8"):
    line = line.strip()
    if line and not line.startswith("#"):
        name, _, desc = line.partition(" ")
        GROUPS[name] = desc.strip()

os.makedirs(SPOOL, exist_ok=True)
STATE_FILE = os.path.join(SPOOL, "state.json")
if os.path.exists(STATE_FILE):
    STATE = json.load(open(STATE_FILE))
else:
    STATE = {"articles": {}, "groups": {}}  # msgid -> text; group -> {"high": n, "low": n, "map": {num: msgid}}
for g in GROUPS:
    STATE["groups"].setdefault(g, {"high": 0, "map": {}})


def save():
    tmp = STATE_FILE + ".tmp"
    with open(tmp, "w") as f:
        json.dump(STATE, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, STATE_FILE)


def split(text):
    head, _, body = text.partition("\r\n\r\n")
    return head, body


def headers(text):
    head, _ = split(text)
    out, cur = [], None
    for line in head.split("\r\n"):
        if line[:1] in (" ", "\t") and out:
            out[-1][1] += line  # unfold: drop the CRLF, keep the whitespace
        else:
            k, _, v = line.partition(":")
            out.append([k, v.strip()])
    return out


def header(text, name):
    for k, v in headers(text):
        if k.lower() == name.lower():
            return v
    return ""


def nums(g):
    return sorted(int(n) for n in STATE["groups"][g]["map"])


def group_line(g):
    ns = nums(g)
    if not ns:
        high = STATE["groups"][g]["high"]
        return 0, high + 1, high
    return len(ns), ns[0], ns[-1]


def overview(n, text):
    head, body = split(text)
    lines = body.count("\r\n") if body else 0
    fields = [header(text, h).replace("\t", " ").replace("\r", "").replace("\n", "") for h in
              ("Subject", "From", "Date", "Message-ID", "References")]
    return "%d\t%s\t%d\t%d" % (n, "\t".join(fields), len(text.encode()), lines)


def stuff(text):
    lines = text.split("\r\n")
    if lines and lines[-1] == "":
        lines.pop()
    return "".join(("." + l if l.startswith(".") else l) + "\r\n" for l in lines) + ".\r\n"


class Session:
    def __init__(self, conn):
        self.conn, self.rfile = conn, conn.makefile("rb")
        self.group, self.current = None, None

    def send(self, s):
        self.conn.sendall(s.encode("utf-8", "surrogateescape"))

    def readline(self):
        line = self.rfile.readline()
        if not line:
            raise EOFError
        return line.decode("utf-8", "surrogateescape").rstrip("\r\n")

    def resolve(self, arg):
        """-> (number, msgid, text) or an error line."""
        if arg.startswith("<"):
            text = STATE["articles"].get(arg)
            return (0, arg, text) if text is not None else "430 no article with that message-id"
        if self.group is None:
            return "412 no newsgroup selected"
        if arg:
            if not arg.isdigit():
                return "501 syntax error"
            n = int(arg)
            msgid = STATE["groups"][self.group]["map"].get(str(n))
            if msgid is None:
                return "423 no article with that number"
            self.current = n
            return n, msgid, STATE["articles"][msgid]
        if self.current is None:
            return "420 current article number is invalid"
        msgid = STATE["groups"][self.group]["map"][str(self.current)]
        return self.current, msgid, STATE["articles"][msgid]

    def run(self):
        self.send("200 nntplite ready, posting allowed\r\n")
        while True:
            line = self.readline()
            words = line.split()
            if not words:
                self.send("500 unknown command\r\n")
                continue
            cmd, args = words[0].upper(), words[1:]
            with LOCK:
                if cmd == "QUIT":
                    self.send("205 bye\r\n")
                    return
                if cmd == "POST":
                    self.post()
                else:
                    self.send(self.command(cmd, args))

    def command(self, cmd, args):
        if cmd == "CAPABILITIES":
            return "101 capability list follows\r\nVERSION 2\r\nREADER\r\nPOST\r\nLIST ACTIVE NEWSGROUPS\r\nOVER\r\n.\r\n"
        if cmd == "LIST":
            kind = args[0].upper() if args else "ACTIVE"
            if kind == "ACTIVE":
                rows = ["%s %d %d y" % (g, group_line(g)[2], group_line(g)[1]) for g in sorted(GROUPS)]
            elif kind == "NEWSGROUPS":
                rows = ["%s\t%s" % (g, GROUPS[g]) for g in sorted(GROUPS)]
            else:
                return "501 unknown list keyword\r\n"
            return "215 list follows\r\n" + "".join(r + "\r\n" for r in rows) + ".\r\n"
        if cmd in ("GROUP", "LISTGROUP"):
            g = args[0] if args else self.group
            if g is None:
                return "412 no newsgroup selected\r\n"
            if g not in GROUPS:
                return "411 no such newsgroup\r\n"
            self.group = g
            count, low, high = group_line(g)
            self.current = low if count else None
            out = "211 %d %d %d %s\r\n" % (count, low, high, g)
            if cmd == "LISTGROUP":
                out += "".join("%d\r\n" % n for n in nums(g)) + ".\r\n"
            return out
        if cmd in ("ARTICLE", "HEAD", "BODY", "STAT"):
            r = self.resolve(args[0] if args else "")
            if isinstance(r, str):
                return r + "\r\n"
            n, msgid, text = r
            head, body = split(text)
            code = {"ARTICLE": 220, "HEAD": 221, "BODY": 222, "STAT": 223}[cmd]
            out = "%d %d %s\r\n" % (code, n, msgid)
            if cmd == "ARTICLE":
                out += stuff(text)
            elif cmd == "HEAD":
                out += stuff(head + "\r\n")
            elif cmd == "BODY":
                out += stuff(body)
            return out
        if cmd in ("NEXT", "LAST"):
            if self.group is None:
                return "412 no newsgroup selected\r\n"
            if self.current is None:
                return "420 current article number is invalid\r\n"
            ns = nums(self.group)
            cand = [n for n in ns if n > self.current] if cmd == "NEXT" else [n for n in ns if n < self.current]
            if not cand:
                return "421 no next article\r\n" if cmd == "NEXT" else "422 no previous article\r\n"
            self.current = cand[0] if cmd == "NEXT" else cand[-1]
            return "223 %d %s\r\n" % (self.current, STATE["groups"][self.group]["map"][str(self.current)])
        if cmd == "OVER":
            if self.group is None:
                return "412 no newsgroup selected\r\n"
            ns = nums(self.group)
            if not args:
                if self.current is None:
                    return "420 current article number is invalid\r\n"
                sel = [self.current]
            else:
                m = re.fullmatch(r"(\d+)(-(\d*))?", args[0])
                if not m:
                    return "501 syntax error\r\n"
                lo = int(m.group(1))
                hi = lo if m.group(2) is None else (int(m.group(3)) if m.group(3) else float("inf"))
                sel = [n for n in ns if lo <= n <= hi]
                if not sel:
                    return "423 no articles in that range\r\n"
            rows = [overview(n, STATE["articles"][STATE["groups"][self.group]["map"][str(n)]]) for n in sel]
            return "224 overview follows\r\n" + "".join(r + "\r\n" for r in rows) + ".\r\n"
        return "500 unknown command\r\n"

    def post(self):
        self.send("340 send article, end with a dot line\r\n")
        lines = []
        while True:
            line = self.readline()
            if line == ".":
                break
            lines.append(line[1:] if line.startswith("..") else line)
        text = "\r\n".join(lines) + "\r\n"
        if "\r\n\r\n" not in text:
            return self.send("441 posting failed: no empty line after the headers\r\n")
        hs = {k.lower(): v for k, v in headers(text)}
        groups = [g.strip() for g in hs.get("newsgroups", "").split(",") if g.strip()]
        if not hs.get("from") or not hs.get("subject") or not groups or any(g not in GROUPS for g in groups):
            return self.send("441 posting failed\r\n")
        msgid = hs.get("message-id", "")
        if msgid:
            if not re.fullmatch(r"<[^<> ]+@[^<> ]+>", msgid):
                return self.send("441 posting failed: bad Message-ID\r\n")
            if msgid in STATE["articles"]:
                return self.send("441 duplicate Message-ID\r\n")
        else:
            SEQ[0] += 1
            msgid = "<%d.%d.%d@nntplite>" % (time.time_ns(), os.getpid(), SEQ[0])
            head, body = split(text)
            text = head + "\r\nMessage-ID: " + msgid + "\r\n\r\n" + body
        STATE["articles"][msgid] = text
        for g in dict.fromkeys(groups):
            st = STATE["groups"][g]
            st["high"] += 1
            st["map"][str(st["high"])] = msgid
        save()
        self.send("240 article received ok\r\n")


def client(conn):
    try:
        Session(conn).run()
    except (EOFError, OSError):
        pass
    finally:
        conn.close()


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", PORT))
    s.listen(64)
    while True:
        conn, _ = s.accept()
        threading.Thread(target=client, args=(conn,), daemon=True).start()


main()
PY
cat > /app/nntp/run.sh <<'SH'
#!/bin/bash
exec python3 /app/nntp/server.py
SH
chmod +x /app/nntp/run.sh
