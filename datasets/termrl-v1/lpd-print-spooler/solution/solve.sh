#!/bin/bash
set -euo pipefail
mkdir -p /app/lpd
cat > /app/lpd/lpd.py <<'PY'
"""lpd-lite: an RFC 1179 line printer daemon subset (receive job, queue state, remove jobs) with a persistent spool."""
import json
import os
import re
import socket
import threading

PORT = int(os.environ.get("LPD_PORT", "5515"))
SPOOL = os.environ.get("LPD_SPOOL", "/var/spool/lpd-lite")
QUEUES_FILE = os.environ.get("LPD_QUEUES", "/etc/lpd-lite/queues")
LOCK = threading.Lock()
QUEUES = [l.strip() for l in open(QUEUES_FILE, encoding="utf-8") if l.strip() and not l.startswith("#")]
os.makedirs(SPOOL, exist_ok=True)
STATE_FILE = os.path.join(SPOOL, "jobs.json")
STATE = json.load(open(STATE_FILE)) if os.path.exists(STATE_FILE) else {"seq": 0, "jobs": {q: [] for q in QUEUES}}
for q in QUEUES:
    STATE["jobs"].setdefault(q, [])
NAME = re.compile(r"(cf|df)A(\d{3})([A-Za-z0-9.-]+)")


def save():
    tmp = STATE_FILE + ".tmp"
    with open(tmp, "w") as f:
        json.dump(STATE, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, STATE_FILE)


class Conn:
    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def line(self):
        while b"\n" not in self.buf:
            d = self.sock.recv(65536)
            if not d:
                return None
            self.buf += d
        i = self.buf.index(b"\n")
        out, self.buf = self.buf[:i], self.buf[i + 1:]
        return out

    def exact(self, n):
        while len(self.buf) < n:
            d = self.sock.recv(65536)
            if not d:
                return None
            self.buf += d
        out, self.buf = self.buf[:n], self.buf[n:]
        return out


def parse_control(text):
    info = {"user": "", "title": "", "files": []}
    for line in text.decode("latin-1").split("\n"):
        if not line:
            continue
        k, v = line[0], line[1:]
        if k == "P":
            info["user"] = v
        elif k == "J":
            info["title"] = v
        elif k in "flpo" and v not in info["files"]:
            info["files"].append(v)
    return info


def complete(queue, control, data):
    """Queue the job if its control file and every data file it names have arrived."""
    name, text = control
    info = parse_control(text)
    if not info["files"] or any(f not in data for f in info["files"]):
        return False
    with LOCK:
        STATE["seq"] += 1
        m = NAME.fullmatch(name)
        job = {"number": int(m.group(2)), "host": m.group(3), "user": info["user"], "title": info["title"],
               "files": info["files"], "bytes": sum(len(data[f]) for f in info["files"]), "id": STATE["seq"]}
        d = os.path.join(SPOOL, queue, str(job["id"]))
        os.makedirs(d, exist_ok=True)
        for f in info["files"]:
            with open(os.path.join(d, f), "wb") as fh:
                fh.write(data[f])
        with open(os.path.join(d, name), "wb") as fh:
            fh.write(text)
        STATE["jobs"][queue].append(job)
        save()
    return True


def receive(c, queue):
    control, data = None, {}
    while True:
        line = c.line()
        if line is None:
            return
        code, rest = line[:1], line[1:].decode("latin-1")
        if code == b"\x01":
            control, data = None, {}
            c.sock.sendall(b"\0")
            continue
        if code not in (b"\x02", b"\x03"):
            return
        parts = rest.split(" ", 1)
        m = NAME.fullmatch(parts[1]) if len(parts) == 2 else None
        if not m or not parts[0].isdigit() or (m.group(1) == "cf") != (code == b"\x02"):
            c.sock.sendall(b"\x01")
            return
        c.sock.sendall(b"\0")
        body = c.exact(int(parts[0]) + 1)
        if body is None:
            return
        if body[-1:] != b"\0":
            c.sock.sendall(b"\x01")
            return
        if code == b"\x02":
            control = (parts[1], body[:-1])
        else:
            data[parts[1]] = body[:-1]
        if control is not None and complete(queue, control, data):
            control, data = None, {}
        c.sock.sendall(b"\0")


def selected(job, items):
    return not items or str(job["number"]) in items or job["user"] in items


def state(queue, items, long):
    out = []
    with LOCK:
        for pos, job in enumerate(STATE["jobs"][queue], 1):
            if not selected(job, items):
                continue
            out.append("%d\t%s\t%03d\t%s\t%d\n" % (pos, job["user"], job["number"], job["title"], job["bytes"]))
            if long:
                out += ["\t%s\n" % f for f in job["files"]]
    return "".join(out) or "no entries\n"


def remove(queue, agent, items):
    out = []
    with LOCK:
        keep = []
        for job in STATE["jobs"][queue]:
            mine = agent == "root" or job["user"] == agent
            wanted = (not items and job["user"] == agent) or (items and selected(job, items))
            if mine and wanted:
                out.append("removed %03d\n" % job["number"])
            else:
                keep.append(job)
        STATE["jobs"][queue] = keep
        save()
    return "".join(out)


def serve(sock):
    c = Conn(sock)
    try:
        line = c.line()
        if not line:
            return
        code, words = line[:1], line[1:].decode("latin-1").split()
        if not words or words[0] not in QUEUES:
            if code == b"\x02":
                sock.sendall(b"\x01")
            else:
                sock.sendall(b"unknown queue\n")
            return
        queue = words[0]
        if code == b"\x02":
            sock.sendall(b"\0")
            receive(c, queue)
        elif code in (b"\x03", b"\x04"):
            sock.sendall(state(queue, words[1:], code == b"\x04").encode("latin-1"))
        elif code == b"\x05" and len(words) >= 2:
            sock.sendall(remove(queue, words[1], words[2:]).encode("latin-1"))
    except OSError:
        pass
    finally:
        sock.close()


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", PORT))
    s.listen(64)
    while True:
        conn, _ = s.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main()
PY
cat > /app/lpd/run.sh <<'SH'
#!/bin/bash
exec python3 /app/lpd/lpd.py
SH
chmod +x /app/lpd/run.sh
