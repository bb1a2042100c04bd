#!/bin/bash
set -euo pipefail
mkdir -p /app/ircd
cat > /app/ircd/ircd.py <<'PY'
"""A small IRC-subset server."""
import os
import re
import socketserver
import threading

SERVER = "irc.test"
LOCK = threading.RLock()
CLIENTS = {}     # folded nick -> Client
CHANNELS = {}    # folded name -> [display name, [members in join order]]
NICK_RE = re.compile(r"[A-Za-z\[\]\\`_^{|}][A-Za-z0-9\[\]\\`_^{|}-]{0,15}\Z")
CHAN_RE = re.compile(r"#[^\x00-\x1f\x7f ,:]{1,49}\Z")
FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]\\~", "abcdefghijklmnopqrstuvwxyz{}|^")


def fold(s):
    return s.translate(FOLD)


def parse(line):
    if " :" in line:
        head, trailing = line.split(" :", 1)
        params = head.split()
        return (params[0] if params else ""), params[1:] + [trailing]
    if line.startswith(":"):
        return "", [line[1:]]
    parts = line.split()
    return (parts[0] if parts else ""), parts[1:]


class Client(socketserver.StreamRequestHandler):
    def setup(self):
        super().setup()
        self.nick = self.user = None
        self.registered = False
        self.wlock = threading.Lock()

    @property
    def n(self):
        return self.nick or "*"

    @property
    def pfx(self):
        return f"{self.nick}!{self.user}@127.0.0.1"

    def send(self, line):
        try:
            with self.wlock:
                self.wfile.write((line + "\r\n").encode("utf-8", "replace"))
                self.wfile.flush()
        except OSError:
            pass

    def num(self, code, text):
        self.send(f":{SERVER} {code} {self.n} {text}")

    def channels(self):
        return [c for c in CHANNELS.values() if self in c[1]]

    def peers(self):
        out = []
        for c in self.channels():
            for m in c[1]:
                if m is not self and m not in out:
                    out.append(m)
        return out

    def handle(self):
        reason = "Connection closed"
        try:
            for raw in self.rfile:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                cmd, params = parse(line)
                if not cmd:
                    continue
                with LOCK:
                    done = self.command(cmd, cmd.upper(), params)
                if done is not None:
                    reason = done
                    break
        except OSError:
            pass
        finally:
            with LOCK:
                if self.registered:
                    for p in self.peers():
                        p.send(f":{self.pfx} QUIT :{reason}")
                for name, c in list(CHANNELS.items()):
                    if self in c[1]:
                        c[1].remove(self)
                        if not c[1]:
                            del CHANNELS[name]
                if self.nick and CLIENTS.get(fold(self.nick)) is self:
                    del CLIENTS[fold(self.nick)]

    def command(self, raw_cmd, cmd, params):
        if cmd == "PING":
            self.send(f":{SERVER} PONG {SERVER} :{params[0] if params else ''}")
        elif cmd == "QUIT":
            return params[0] if params else "Client Quit"
        elif cmd == "NICK":
            self.do_nick(params)
        elif cmd == "USER":
            if len(params) < 4:
                self.num("461", "USER :Not enough parameters")
            elif not self.registered:
                self.user = params[0]
                self.try_register()
        elif not self.registered:
            self.num("451", ":You have not registered")
        elif cmd == "JOIN" and params:
            for name in params[0].split(","):
                self.do_join(name)
        elif cmd == "PART" and params:
            self.do_part(params[0], params[1] if len(params) > 1 else None)
        elif cmd == "PRIVMSG":
            self.do_privmsg(params)
        else:
            self.num("421", f"{raw_cmd} :Unknown command")
        return None

    def try_register(self):
        if self.nick and self.user and not self.registered:
            self.registered = True
            self.num("001", f":Welcome {self.pfx}")

    def do_nick(self, params):
        if not params:
            self.num("431", ":No nickname given")
            return
        new = params[0]
        if not NICK_RE.match(new):
            self.num("432", f"{new} :Erroneous nickname")
            return
        other = CLIENTS.get(fold(new))
        if other is not None and other is not self:
            self.num("433", f"{new} :Nickname is already in use")
            return
        old_pfx = self.pfx
        if self.nick:
            del CLIENTS[fold(self.nick)]
        CLIENTS[fold(new)] = self
        was = self.registered
        self.nick = new
        if was:
            self.send(f":{old_pfx} NICK {new}")
            for p in self.peers():
                p.send(f":{old_pfx} NICK {new}")
        else:
            self.try_register()

    def do_join(self, name):
        if not CHAN_RE.match(name):
            self.num("403", f"{name} :No such channel")
            return
        chan = CHANNELS.setdefault(fold(name), [name, []])
        if self in chan[1]:
            return
        chan[1].append(self)
        for m in chan[1]:
            m.send(f":{self.pfx} JOIN {chan[0]}")
        self.num("353", f"= {chan[0]} :{' '.join(m.nick for m in chan[1])}")
        self.num("366", f"{chan[0]} :End of /NAMES list")

    def do_part(self, name, reason):
        chan = CHANNELS.get(fold(name))
        if chan is None or self not in chan[1]:
            self.num("442", f"{name} :You're not on that channel")
            return
        line = f":{self.pfx} PART {chan[0]}" + (f" :{reason}" if reason is not None else "")
        for m in chan[1]:
            m.send(line)
        chan[1].remove(self)
        if not chan[1]:
            del CHANNELS[fold(name)]

    def do_privmsg(self, params):
        if not params:
            self.num("411", ":No recipient given (PRIVMSG)")
            return
        if len(params) < 2 or params[1] == "":
            self.num("412", ":No text to send")
            return
        target, text = params[0], params[1]
        line = f":{self.pfx} PRIVMSG {target} :{text}"
        if target.startswith("#"):
            chan = CHANNELS.get(fold(target))
            if chan is None:
                self.num("401", f"{target} :No such nick/channel")
            elif self not in chan[1]:
                self.num("404", f"{target} :Cannot send to channel")
            else:
                for m in chan[1]:
                    if m is not self:
                        m.send(line)
        else:
            other = CLIENTS.get(fold(target))
            if other is None or not other.registered:
                self.num("401", f"{target} :No such nick/channel")
            else:
                other.send(line)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    Server(("127.0.0.1", int(os.environ.get("IRC_PORT", "6667"))), Client).serve_forever()
PY
cat > /app/ircd/run.sh <<'SH'
#!/bin/bash
exec python3 /app/ircd/ircd.py
SH
chmod +x /app/ircd/run.sh
