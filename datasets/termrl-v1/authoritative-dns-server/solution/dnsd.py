import ipaddress
import os
import re
import shlex
import socket
import socketserver
import struct
import threading

ZONE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zone.txt")
PORT = int(os.environ.get("DNS_PORT", "5353"))
TYPES = {"A": 1, "NS": 2, "CNAME": 5, "SOA": 6, "MX": 15, "TXT": 16, "AAAA": 28}


def absname(n, origin):
    if n == "@":
        return origin
    return n.lower() if n.endswith(".") else (n + "." + origin).lower()


def load():
    origin, records = None, []
    for raw in open(ZONE_FILE):
        line = raw
        # strip comments outside quotes
        out, q = "", False
        for ch in line:
            if ch == '"':
                q = not q
            if ch == ";" and not q:
                break
            out += ch
        line = out.strip()
        if not line:
            continue
        if line.startswith("$ORIGIN"):
            origin = line.split()[1].lower()
            continue
        parts = line.split(None, 4)
        name, ttl, cls, typ, rdata = parts
        records.append((absname(name, origin), int(ttl), typ.upper(), rdata.strip()))
    return origin, records


ORIGIN, RECORDS = load()


def enc_name(n):
    out = b""
    for label in n.rstrip(".").split("."):
        if label:
            out += bytes([len(label)]) + label.encode()
    return out + b"\x00"


def rdata_bytes(typ, rd):
    if typ == "A":
        return ipaddress.IPv4Address(rd).packed
    if typ == "AAAA":
        return ipaddress.IPv6Address(rd).packed
    if typ in ("NS", "CNAME"):
        return enc_name(absname(rd, ORIGIN))
    if typ == "MX":
        pref, ex = rd.split()
        return struct.pack("!H", int(pref)) + enc_name(absname(ex, ORIGIN))
    if typ == "TXT":
        out = b""
        for s in shlex.split(rd):
            b = s.encode()
            out += bytes([len(b)]) + b
        return out
    if typ == "SOA":
        f = rd.split()
        return enc_name(absname(f[0], ORIGIN)) + enc_name(absname(f[1], ORIGIN)) + struct.pack("!5I", *map(int, f[2:7]))
    raise ValueError(typ)


def rr(name, ttl, typ, rd):
    data = rdata_bytes(typ, rd)
    return enc_name(name) + struct.pack("!HHIH", TYPES[typ], 1, ttl, len(data)) + data


def in_zone(n):
    return n == ORIGIN or n.endswith("." + ORIGIN)


def exists(n):
    return any(r[0] == n or r[0].endswith("." + n) for r in RECORDS)


def parse_name(msg, off):
    labels = []
    while True:
        if off >= len(msg):
            raise ValueError("short")
        ln = msg[off]
        if ln == 0:
            return ".".join(labels) + ".", off + 1
        if ln & 0xC0:
            raise ValueError("compression in question")
        labels.append(msg[off + 1:off + 1 + ln].decode("ascii"))
        off += 1 + ln


def answer(msg, udp):
    if len(msg) < 12:
        return None
    qid, flags, qd, an, ns, ar = struct.unpack("!6H", msg[:12])
    opcode = (flags >> 11) & 0xF
    rd = flags & 0x0100
    base = 0x8000 | (opcode << 11) | 0x0400 | rd

    def header(rcode, q, a=0, n=0, tc=0):
        return struct.pack("!6H", qid, base | rcode | tc, q, a, n, 0)

    if opcode != 0:
        return header(4, 0)
    if qd != 1:
        return header(1, 0)
    try:
        qname, off = parse_name(msg, 12)
        qtype, qclass = struct.unpack("!HH", msg[off:off + 4])
    except Exception:
        return header(1, 0)
    question = msg[12:off + 4]
    name = qname.lower()
    if not in_zone(name):
        return header(5, 1) + question
    answers, cur, seen = [], name, set()
    while True:
        recs = [r for r in RECORDS if r[0] == cur]
        cn = [r for r in recs if r[2] == "CNAME"]
        if cn and qtype != TYPES["CNAME"] and cur not in seen:
            seen.add(cur)
            answers.append(cn[0])
            cur = absname(cn[0][3], ORIGIN)
            if not in_zone(cur):
                break
            continue
        answers += [r for r in recs if TYPES[r[2]] == qtype]
        break
    soa = [r for r in RECORDS if r[2] == "SOA"][0]
    if answers:
        body = b"".join(rr(*r) for r in answers)
        resp = header(0, 1, len(answers)) + question + body
    elif exists(name):
        resp = header(0, 1, 0, 1) + question + rr(*soa)
    else:
        resp = header(3, 1, 0, 1) + question + rr(*soa)
    if udp and len(resp) > 512:
        return header(resp[3] & 0xF, 1, tc=0x0200) + question
    return resp


class UDP(socketserver.BaseRequestHandler):
    def handle(self):
        data, sock = self.request
        r = answer(data, True)
        if r:
            sock.sendto(r, self.client_address)


class TCP(socketserver.BaseRequestHandler):
    def handle(self):
        f = self.request
        f.settimeout(10)
        while True:
            hdr = self._read(2)
            if not hdr:
                return
            (n,) = struct.unpack("!H", hdr)
            msg = self._read(n)
            if msg is None:
                return
            r = answer(msg, False)
            if r:
                f.sendall(struct.pack("!H", len(r)) + r)

    def _read(self, n):
        buf = b""
        while len(buf) < n:
            try:
                c = self.request.recv(n - len(buf))
            except OSError:
                return None
            if not c:
                return None
            buf += c
        return buf


class TU(socketserver.ThreadingUDPServer):
    allow_reuse_address = True
    daemon_threads = True


class TT(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


if __name__ == "__main__":
    u = TU(("127.0.0.1", PORT), UDP)
    t = TT(("127.0.0.1", PORT), TCP)
    threading.Thread(target=u.serve_forever, daemon=True).start()
    t.serve_forever()
