#!/bin/bash
set -euo pipefail
mkdir -p /app/mq
cat > /app/mq/broker.py <<'PY'
"""Work-queue broker: PUB/SUB/ACK/NACK/STATS over TCP lines, append-only log per queue."""
import bisect
import os
import re
import socketserver
import threading

DATA = os.environ.get("MQ_DATA", "/var/lib/mq")
NAME = re.compile(r"[A-Za-z0-9._-]{1,64}\Z")
LOCK = threading.RLock()
QUEUES = {}


class Queue:
    def __init__(self, name):
        self.name = name
        self.next = 1
        self.msgs = {}          # id -> [payload, delivered]
        self.ready = []         # sorted ids
        self.out = {}           # id -> connection
        self.consumers = []     # connections, in subscription order
        self.rr = 0
        path = os.path.join(DATA, name + ".log")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if not line.endswith("\n"):
                        break  # torn last write
                    kind, _, rest = line[:-1].partition(" ")
                    if kind == "P":
                        i, _, payload = rest.partition(" ")
                        self.msgs[int(i)] = [payload, False]
                        self.next = max(self.next, int(i) + 1)
                    elif kind == "D" and int(rest) in self.msgs:
                        self.msgs[int(rest)][1] = True
                    elif kind == "A":
                        self.msgs.pop(int(rest), None)
        self.ready = sorted(self.msgs)
        self.log = open(path, "a", encoding="utf-8")

    def write(self, line):
        self.log.write(line + "\n")
        self.log.flush()

    def dispatch(self):
        while self.ready:
            n = len(self.consumers)
            target = None
            for k in range(n):
                c = self.consumers[(self.rr + k) % n]
                if len(c.out[self.name]) < c.prefetch[self.name]:
                    target, self.rr = c, (self.rr + k + 1) % n
                    break
            if target is None:
                return
            i = self.ready.pop(0)
            payload, delivered = self.msgs[i]
            if not delivered:
                self.msgs[i][1] = True
                self.write(f"D {i}")
            self.out[i] = target
            target.out[self.name].add(i)
            target.push(f"MSG {self.name} {i} {int(delivered)} {payload}")

    def requeue(self, i):
        del self.out[i]
        bisect.insort(self.ready, i)


def queue(name):
    if name not in QUEUES:
        QUEUES[name] = Queue(name)
    return QUEUES[name]


class Conn(socketserver.StreamRequestHandler):
    def setup(self):
        super().setup()
        self.wlock = threading.Lock()
        self.out, self.prefetch = {}, {}

    def push(self, line):
        try:
            with self.wlock:
                self.wfile.write((line + "\n").encode())
                self.wfile.flush()
        except OSError:
            pass

    def handle(self):
        for raw in self.rfile:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line.endswith("\r"):
                line = line[:-1]
            with LOCK:
                reply = self.command(line)
                self.push(reply)
                for q in list(QUEUES.values()):
                    q.dispatch()

    def finish(self):
        with LOCK:
            for name, ids in self.out.items():
                q = QUEUES[name]
                for i in list(ids):
                    q.requeue(i)
                q.consumers.remove(self)
                q.dispatch()
        super().finish()

    def command(self, line):
        verb, _, rest = line.partition(" ")
        if verb == "PUB":
            name, sep, payload = rest.partition(" ")
            if not NAME.match(name) or not sep or not payload:
                return "ERR usage: PUB queue payload"
            q = queue(name)
            i = q.next
            q.next += 1
            q.write(f"P {i} {payload}")
            q.msgs[i] = [payload, False]
            bisect.insort(q.ready, i)
            return f"OK {i}"
        args = rest.split(" ")
        if verb == "SUB":
            if len(args) != 2 or not NAME.match(args[0]) or not re.fullmatch(r"\d{1,4}", args[1]) \
                    or not 1 <= int(args[1]) <= 1000:
                return "ERR usage: SUB queue prefetch"
            q = queue(args[0])
            if args[0] not in self.out:
                self.out[args[0]] = set()
                q.consumers.append(self)
            self.prefetch[args[0]] = int(args[1])
            return "OK"
        if verb in ("ACK", "NACK"):
            if len(args) != 2 or not NAME.match(args[0]) or not args[1].isdigit():
                return f"ERR usage: {verb} queue id"
            i = int(args[1])
            if i not in self.out.get(args[0], ()):
                return "ERR not delivered to this connection"
            q = QUEUES[args[0]]
            self.out[args[0]].discard(i)
            if verb == "ACK":
                del q.out[i]
                del q.msgs[i]
                q.write(f"A {i}")
            else:
                q.requeue(i)
            return "OK"
        if verb == "STATS":
            if len(args) != 1 or not NAME.match(args[0]):
                return "ERR usage: STATS queue"
            q = QUEUES.get(args[0])
            return f"OK ready={len(q.ready) if q else 0} unacked={len(q.out) if q else 0}"
        return "ERR unknown command"


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    os.makedirs(DATA, exist_ok=True)
    with LOCK:
        for f in sorted(os.listdir(DATA)):
            if f.endswith(".log") and NAME.match(f[:-4]):
                queue(f[:-4])
    Server(("127.0.0.1", int(os.environ.get("MQ_PORT", "7400"))), Conn).serve_forever()
PY
cat > /app/mq/run.sh <<'SH'
#!/bin/bash
exec python3 /app/mq/broker.py
SH
chmod +x /app/mq/run.sh
