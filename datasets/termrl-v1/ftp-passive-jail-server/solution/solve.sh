#!/bin/bash
set -euo pipefail
mkdir -p /app/ftpd
cat > /app/ftpd/ftpd.py <<'PY'
"""FTP server subset: passive mode only, per-user home jails."""
import json
import os
import posixpath
import socket
import socketserver
import stat
import time

ROOT = os.environ.get("FTP_ROOT", "/srv/ftp")
USERS = os.environ.get("FTP_USERS", "/etc/ftpd/users.json")
WRITE_CMDS = {"STOR", "MKD", "RMD", "DELE"}


class Session(socketserver.StreamRequestHandler):
    def reply(self, text):
        self.wfile.write((text + "\r\n").encode("utf-8", "replace"))
        self.wfile.flush()

    def handle(self):
        self.user = self.pending = None
        self.cwd = "/"
        self.pasv = None
        self.reply("220 ftpd ready")
        try:
            for raw in self.rfile:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                cmd, _, arg = line.partition(" ")
                if self.dispatch(cmd.upper(), arg) is False:
                    return
        finally:
            if self.pasv:
                self.pasv.close()

    def virtual(self, arg):
        return posixpath.normpath(posixpath.join(self.cwd, arg or "."))

    def real(self, vpath):
        """The real path of a virtual one, or None if it leaves the home (also through symlinks)."""
        home = os.path.realpath(self.home)
        rel = posixpath.normpath(vpath).lstrip("/")
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        stack = []
        for p in parts:
            if p == "..":
                if stack:
                    stack.pop()
            else:
                stack.append(p)
        path = os.path.join(home, *stack)
        resolved = os.path.realpath(path)
        if resolved != home and not resolved.startswith(home + os.sep):
            return None
        return resolved

    def clean(self, vpath):
        parts = []
        for p in vpath.split("/"):
            if p in ("", "."):
                continue
            if p == "..":
                if parts:
                    parts.pop()
            else:
                parts.append(p)
        return "/" + "/".join(parts)

    def dispatch(self, cmd, arg):
        if cmd == "QUIT":
            self.reply("221 bye")
            return False
        if cmd == "USER":
            self.pending, self.user = arg, None
            return self.reply("331 password required")
        if cmd == "PASS":
            try:
                accounts = json.load(open(USERS))
            except (OSError, ValueError):
                accounts = {}
            acc = accounts.get(self.pending or "")
            if acc and acc.get("password") == arg:
                self.user, self.acc = self.pending, acc
                self.home = os.path.join(ROOT, acc["home"])
                self.cwd = "/"
                return self.reply("230 logged in")
            return self.reply("530 login incorrect")
        if self.user is None:
            return self.reply("530 please log in")
        if cmd == "NOOP":
            return self.reply("200 ok")
        if cmd == "SYST":
            return self.reply("215 UNIX Type: L8")
        if cmd == "TYPE":
            return self.reply("200 type set") if arg.upper() in ("I", "A") else self.reply("504 type not supported")
        if cmd == "PWD":
            return self.reply(f'257 "{self.cwd}" is the current directory')
        if cmd in ("CWD", "CDUP"):
            target = self.clean(self.virtual(".." if cmd == "CDUP" else arg))
            real = self.real(target)
            if real is None or not os.path.isdir(real):
                return self.reply("550 no such directory")
            self.cwd = target
            return self.reply("250 ok")
        if cmd in ("PASV", "EPSV"):
            if self.pasv:
                self.pasv.close()
            self.pasv = socket.socket()
            self.pasv.bind(("127.0.0.1", 0))
            self.pasv.listen(1)
            port = self.pasv.getsockname()[1]
            if cmd == "PASV":
                return self.reply(f"227 Entering Passive Mode (127,0,0,1,{port >> 8},{port & 255})")
            return self.reply(f"229 Entering Extended Passive Mode (|||{port}|)")
        vpath = self.clean(self.virtual(arg))
        real = self.real(vpath)
        if cmd in WRITE_CMDS and not self.acc.get("write"):
            self.drop()
            return self.reply("550 permission denied")
        if cmd in ("RETR", "STOR", "LIST", "NLST"):
            return self.transfer(cmd, real)
        if cmd == "SIZE":
            if real is None or not os.path.isfile(real):
                return self.reply("550 not a file")
            return self.reply(f"213 {os.path.getsize(real)}")
        if cmd == "MKD":
            if real is None or os.path.exists(real) or not os.path.isdir(os.path.dirname(real)):
                return self.reply("550 cannot create")
            os.mkdir(real)
            return self.reply(f'257 "{vpath}" created')
        if cmd == "RMD":
            if real is None or not os.path.isdir(real) or os.listdir(real) or vpath == "/":
                return self.reply("550 cannot remove")
            os.rmdir(real)
            return self.reply("250 removed")
        if cmd == "DELE":
            if real is None or not os.path.isfile(real):
                return self.reply("550 not a file")
            os.unlink(real)
            return self.reply("250 deleted")
        return self.reply("502 command not implemented")

    def drop(self):
        if self.pasv:
            self.pasv.close()
            self.pasv = None

    def transfer(self, cmd, real):
        if self.pasv is None:
            return self.reply("425 use PASV or EPSV first")
        ok = real is not None and (
            cmd == "RETR" and os.path.isfile(real) or
            cmd == "STOR" and os.path.isdir(os.path.dirname(real)) and not os.path.isdir(real) or
            cmd in ("LIST", "NLST") and os.path.isdir(real))
        if not ok:
            self.drop()
            return self.reply("550 file unavailable")
        self.reply("150 opening data connection")
        listener, self.pasv = self.pasv, None
        listener.settimeout(60)
        conn, _ = listener.accept()
        listener.close()
        with conn:
            if cmd == "RETR":
                with open(real, "rb") as f:
                    while chunk := f.read(65536):
                        conn.sendall(chunk)
            elif cmd == "STOR":
                with open(real, "wb") as f:
                    while chunk := conn.recv(65536):
                        f.write(chunk)
            else:
                home = os.path.realpath(self.home)
                names = sorted(n for n in os.listdir(real)  # entries leading outside the home do not exist
                               if os.path.realpath(os.path.join(real, n)) == home
                               or os.path.realpath(os.path.join(real, n)).startswith(home + os.sep))
                lines = []
                for n in names:
                    if cmd == "NLST":
                        lines.append(n)
                        continue
                    st = os.lstat(os.path.join(real, n))
                    kind = "d" if stat.S_ISDIR(st.st_mode) else "-"
                    when = time.strftime("%b %d %H:%M", time.gmtime(st.st_mtime))
                    lines.append(f"{kind}rw-r--r-- 1 ftp ftp {st.st_size} {when} {n}")
                conn.sendall("".join(l + "\r\n" for l in lines).encode("utf-8", "replace"))
        self.reply("226 transfer complete")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    Server(("127.0.0.1", int(os.environ.get("FTP_PORT", "2121"))), Session).serve_forever()
PY
cat > /app/ftpd/run.sh <<'SH'
#!/bin/bash
exec python3 /app/ftpd/ftpd.py
SH
chmod +x /app/ftpd/run.sh
