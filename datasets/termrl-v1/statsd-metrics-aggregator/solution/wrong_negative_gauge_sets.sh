#!/bin/bash
# Plausible but wrong: complete, except that a gauge value with a leading '-' sets the gauge (only '+' is
# treated as a delta), the most common StatsD gauge mistake.
set -euo pipefail
mkdir -p /app/statsd
cat > /app/statsd/server.py <<'PY'
"""StatsD-style aggregator: UDP metrics, TCP admin (peek / flush)."""
import json
import math
import os
import re
import socket
import socketserver
import threading

NAME = re.compile(r"[A-Za-z0-9_.\-]+\Z")
NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\Z")


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.gauges = {}
        self.reset()

    def reset(self):
        self.counters, self.timers, self.sets = {}, {}, {}
        self.types = {k: "g" for k in self.gauges}
        self.lines = self.bad = 0

    def line(self, text):
        self.lines += 1
        if not self.apply(text):
            self.bad += 1

    def apply(self, text):
        parts = text.split("|")
        if len(parts) not in (2, 3) or ":" not in parts[0]:
            return False
        name, value = parts[0].split(":", 1)
        kind = parts[1]
        if not NAME.match(name) or kind not in ("c", "g", "ms", "s"):
            return False
        rate = 1.0
        if len(parts) == 3:
            if not parts[2].startswith("@") or not NUMBER.match(parts[2][1:]):
                return False
            rate = float(parts[2][1:])
            if not 0 < rate <= 1:
                return False
        if kind == "s":
            if value == "":
                return False
        elif not NUMBER.match(value):
            return False
        if self.types.get(name, kind) != kind:
            return False
        if kind == "c":
            self.counters[name] = self.counters.get(name, 0.0) + float(value) / rate
        elif kind == "g":
            if value[0] == "+":
                self.gauges[name] = self.gauges.get(name, 0.0) + float(value)
            else:
                self.gauges[name] = float(value)
        elif kind == "ms":
            v = float(value)
            if v < 0:
                return False
            self.timers.setdefault(name, []).append(v)
        else:
            self.sets.setdefault(name, set()).add(value)
        self.types[name] = kind
        return True

    def report(self):
        timers = {}
        for k, xs in self.timers.items():
            s = sorted(xs)
            n = len(s)
            med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
            timers[k] = {"count": n, "min": s[0], "max": s[-1], "mean": sum(s) / n, "median": med,
                         "p90": s[math.ceil(0.9 * n) - 1]}
        return {"counters": dict(self.counters), "gauges": dict(self.gauges), "timers": timers,
                "sets": {k: len(v) for k, v in self.sets.items()}, "lines": self.lines, "bad_lines": self.bad}


STATE = State()


def udp_loop(port):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    sock.bind(("127.0.0.1", port))
    while True:
        data, _ = sock.recvfrom(65536)
        text = data.decode("utf-8", "replace")
        with STATE.lock:
            for ln in text.split("\n"):
                if ln != "":
                    STATE.line(ln)


class Admin(socketserver.StreamRequestHandler):
    def handle(self):
        for raw in self.rfile:
            cmd = raw.decode("utf-8", "replace").strip()
            with STATE.lock:
                if cmd == "peek":
                    out = STATE.report()
                elif cmd == "flush":
                    out = STATE.report()
                    STATE.reset()
                else:
                    out = {"error": "unknown command"}
            self.wfile.write((json.dumps(out) + "\n").encode())
            self.wfile.flush()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    threading.Thread(target=udp_loop, args=(int(os.environ.get("STATSD_PORT", "8125")),), daemon=True).start()
    Server(("127.0.0.1", int(os.environ.get("STATSD_ADMIN_PORT", "8126"))), Admin).serve_forever()


if __name__ == "__main__":
    main()
PY
printf '#!/bin/bash\nexec python3 /app/statsd/server.py\n' > /app/statsd/run.sh
chmod +x /app/statsd/run.sh
