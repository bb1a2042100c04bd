#!/bin/bash
set -euo pipefail
mkdir -p /app/gate
cat > /app/gate/gate.py <<'PY'
"""Authorisation gate on a UNIX socket: callers identified by SO_PEERCRED, first-match glob policy."""
import fnmatch
import grp
import json
import os
import pwd
import socket
import socketserver
import struct
import threading

SOCK = os.environ.get("GATE_SOCKET", "/run/gate/gate.sock")
POLICY = os.environ.get("GATE_POLICY", "/etc/gate/policy")
LOG = os.environ.get("GATE_LOG", "/var/log/gate/decisions.jsonl")
LOG_LOCK = threading.Lock()


def identity(uid, gid):
    try:
        name = pwd.getpwuid(uid).pw_name
    except KeyError:
        name = None
    groups = set()
    try:
        groups.add(grp.getgrgid(gid).gr_name)
    except KeyError:
        pass
    if name is not None:
        groups.update(g.gr_name for g in grp.getgrall() if name in g.gr_mem)
    return name, groups


def decide(uid, name, groups, request):
    try:
        lines = open(POLICY, encoding="utf-8").read().split("\n")
    except OSError:
        return "deny", None
    for no, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3 or parts[0] not in ("allow", "deny"):
            continue
        action, subject, pattern = parts[0], parts[1], parts[2].rstrip("\r")
        kind, _, value = subject.partition(":")
        if subject == "*":
            covers = True
        elif kind == "user":
            covers = name is not None and value == name
        elif kind == "group":
            covers = value in groups
        elif kind == "uid":
            covers = value.isdigit() and int(value) == uid
        else:
            covers = False
        if covers and fnmatch.fnmatchcase(request, pattern):
            return action, no
    return "deny", None


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        creds = self.request.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, gid = struct.unpack("3i", creds)
        raw = self.rfile.readline(1025)
        if not raw.endswith(b"\n"):
            return  # closed before a complete request line
        request = raw.decode("utf-8", "replace").rstrip("\n").rstrip("\r")
        name, groups = identity(uid, gid)
        if request == "whoami":
            reply = f"ID uid={uid} user={name or '-'} groups={','.join(sorted(groups))}"
        else:
            decision, rule = decide(uid, name, groups, request)
            with LOG_LOCK:
                os.makedirs(os.path.dirname(LOG) or ".", exist_ok=True)
                with open(LOG, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"uid": uid, "user": name, "request": request, "decision": decision,
                                        "rule": rule}) + "\n")
            reply = decision.upper()
        self.wfile.write(reply.encode() + b"\n")


class Server(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True


if __name__ == "__main__":
    os.makedirs(os.path.dirname(SOCK) or ".", exist_ok=True)
    if os.path.exists(SOCK):
        os.unlink(SOCK)
    server = Server(SOCK, Handler)
    os.chmod(SOCK, 0o666)
    server.serve_forever()
PY
cat > /app/gate/run.sh <<'SH'
#!/bin/bash
exec python3 /app/gate/gate.py
SH
chmod +x /app/gate/run.sh
