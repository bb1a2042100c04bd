#!/bin/bash
set -euo pipefail
mkdir -p /app/collector
cat > /app/collector/collector.py <<'PY'
"""Syslog collector: RFC 5424 / 3164 over UDP and TCP (RFC 6587 framings), routed to per-host files."""
import json
import os
import re
import socket
import socketserver
import threading

CONF = json.load(open(os.environ.get("COLLECTOR_CONFIG", "/etc/collector/collector.json")))
OUT = CONF["out_dir"]
MIN = CONF["min_severity"]
FACILITIES = ["kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv",
              "ftp", "ntp", "security", "console", "solaris-cron"] + [f"local{i}" for i in range(8)]
LOCK = threading.Lock()
PRI = re.compile(rb"<(\d{1,3})>")
TOKEN = re.compile(rb"[^ ]+")
R3164 = re.compile(r"([A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d) (\S+) ([^\s\[\]:]+)(?:\[([^\]]*)\])?: (.*)\Z", re.S)
SDNAME = re.compile(rb'[^ =\]"]+')


class Invalid(Exception):
    pass


def nil(b):
    return None if b == b"-" else b.decode("utf-8", "replace")


def parse_sd(data, i):
    sd = {}
    if data[i:i + 1] == b"-":
        return sd, i + 1
    if data[i:i + 1] != b"[":
        raise Invalid
    while data[i:i + 1] == b"[":
        m = SDNAME.match(data, i + 1)
        if not m:
            raise Invalid
        params = sd.setdefault(m.group().decode("utf-8", "replace"), {})
        i = m.end()
        while data[i:i + 1] == b" ":
            m = SDNAME.match(data, i + 1)
            if not m or data[m.end():m.end() + 2] != b'="':
                raise Invalid
            name, i, value = m.group().decode("utf-8", "replace"), m.end() + 2, bytearray()
            while True:
                c = data[i:i + 1]
                if not c:
                    raise Invalid
                if c == b"\\" and data[i + 1:i + 2] in (b'"', b"\\", b"]"):
                    value += data[i + 1:i + 2]
                    i += 2
                elif c == b'"':
                    i += 1
                    break
                else:
                    value += c
                    i += 1
            params[name] = value.decode("utf-8", "replace")
        if data[i:i + 1] != b"]":
            raise Invalid
        i += 1
    return sd, i


def parse(data):
    m = PRI.match(data)
    if not m or int(m.group(1)) > 191:
        raise Invalid
    pri = int(m.group(1))
    rec = {"facility": FACILITIES[pri // 8], "severity": pri % 8}
    rest = data[m.end():]
    if rest.startswith(b"1 "):
        i, fields = 2, []
        for _ in range(5):
            t = TOKEN.match(rest, i)
            if not t or rest[t.end():t.end() + 1] != b" ":
                raise Invalid
            fields.append(t.group())
            i = t.end() + 1
        sd, i = parse_sd(rest, i)
        if i == len(rest):
            msg = b""
        elif rest[i:i + 1] == b" ":
            msg = rest[i + 1:]
        else:
            raise Invalid
        if msg.startswith(b"\xef\xbb\xbf"):
            msg = msg[3:]
        rec.update(format="5424", timestamp=nil(fields[0]), hostname=nil(fields[1]), app=nil(fields[2]),
                   procid=nil(fields[3]), msgid=nil(fields[4]), sd=sd, msg=msg.decode("utf-8", "replace"))
        return rec
    m = R3164.match(rest.decode("utf-8", "replace"))
    if not m:
        raise Invalid
    rec.update(format="3164", timestamp=m.group(1), hostname=m.group(2), app=m.group(3), procid=m.group(4),
               msgid=None, sd={}, msg=m.group(5))
    return rec


def handle(data):
    try:
        rec = parse(data)
    except Invalid:
        path, line = os.path.join(OUT, "_invalid.jsonl"), {"raw": data.decode("utf-8", "replace")}
    else:
        if rec["severity"] > MIN.get(rec["facility"], MIN.get("default", 7)):
            return
        host = rec["hostname"] if rec["hostname"] is not None else "-"
        path = os.path.join(OUT, host, rec["facility"] + ".jsonl")
        line = {k: rec[k] for k in ("format", "facility", "severity", "timestamp", "hostname", "app", "procid",
                                    "msgid", "sd", "msg")}
    with LOCK:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


class UDP(socketserver.BaseRequestHandler):
    def handle(self):
        data = self.request[0]
        handle(data[:-1] if data.endswith(b"\n") else data)


class TCP(socketserver.StreamRequestHandler):
    def handle(self):
        f = self.rfile
        while True:
            c = f.read(1)
            if not c:
                return
            if c.isdigit():
                n = c
                while True:
                    c = f.read(1)
                    if not c:
                        return
                    if c == b" ":
                        break
                    n += c
                if not n.isdigit():
                    return
                handle(f.read(int(n)))
            else:
                line = f.readline()
                handle(c + (line[:-1] if line.endswith(b"\n") else line))


class UDPServer(socketserver.ThreadingUDPServer):
    daemon_threads = True


class TCPServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    u = UDPServer(("127.0.0.1", int(CONF["udp_port"])), UDP)
    t = TCPServer(("127.0.0.1", int(CONF["tcp_port"])), TCP)
    threading.Thread(target=u.serve_forever, daemon=True).start()
    t.serve_forever()
PY
cat > /app/collector/run.sh <<'SH'
#!/bin/bash
exec python3 /app/collector/collector.py
SH
chmod +x /app/collector/run.sh
