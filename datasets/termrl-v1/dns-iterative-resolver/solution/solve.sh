#!/bin/bash
set -euo pipefail
mkdir -p /app/resolver
cat > /app/resolver/resolver.py <<'PY'
"""Caching iterative DNS resolver (IN A only) over UDP."""
import os
import random
import socket
import socketserver
import struct
import threading
import time

PORT = int(os.environ.get("RESOLVER_PORT", "5353"))
DNS_PORT = int(os.environ.get("DNS_PORT", "53"))
ROOT = os.environ.get("ROOT_SERVER", "127.0.0.1")
A, NS, CNAME, SOA = 1, 2, 5, 6
LOCK = threading.RLock()
RRS = {}      # (name, type) -> (expires, [rdata])   rdata: ip string or target name
NEG = {}      # name -> (expires, rcode)
DELEG = {}    # zone -> (expires, [ips])


class Fail(Exception):
    pass


def enc_name(name):
    out = b""
    for label in [l for l in name.rstrip(".").split(".") if l]:
        out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def dec_name(msg, off):
    labels, jumps, end = [], 0, None
    while True:
        if off >= len(msg):
            raise Fail("truncated name")
        n = msg[off]
        if n & 0xC0 == 0xC0:
            if end is None:
                end = off + 2
            off = ((n & 0x3F) << 8) | msg[off + 1]
            jumps += 1
            if jumps > 30:
                raise Fail("pointer loop")
            continue
        if n == 0:
            return ".".join(labels).lower(), (end if end is not None else off + 1)
        labels.append(msg[off + 1:off + 1 + n].decode("latin-1"))
        off += 1 + n


def parse(msg):
    ident, flags, qd, an, ns, ar = struct.unpack("!6H", msg[:12])
    off = 12
    for _ in range(qd):
        _, off = dec_name(msg, off)
        off += 4
    sections = []
    for count in (an, ns, ar):
        recs = []
        for _ in range(count):
            name, off = dec_name(msg, off)
            rtype, rclass, ttl, rdlen = struct.unpack("!HHIH", msg[off:off + 10])
            off += 10
            rd = msg[off:off + rdlen]
            if rtype == A and rdlen == 4:
                data = socket.inet_ntoa(rd)
            elif rtype in (NS, CNAME):
                data = dec_name(msg, off)[0]
            elif rtype == SOA:
                o = dec_name(msg, off)[1]
                o = dec_name(msg, o)[1]
                data = struct.unpack("!5I", msg[o:o + 20])
            else:
                data = rd
            recs.append((name, rtype, ttl, data))
            off += rdlen
        sections.append(recs)
    return ident, flags & 0xF, sections


def ask(ips, name):
    for ip in ips:
        ident = random.randrange(65536)
        q = struct.pack("!6H", ident, 0, 1, 0, 0, 0) + enc_name(name) + struct.pack("!HH", A, 1)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(2)
        try:
            s.sendto(q, (ip, DNS_PORT))
            while True:
                data, _ = s.recvfrom(65535)
                if struct.unpack("!H", data[:2])[0] == ident:
                    return parse(data)
        except (OSError, struct.error, Fail):
            continue
        finally:
            s.close()
    raise Fail("no server answered")


def put(key, ttl, values, table=RRS):
    table[key] = (time.time() + ttl, values)


def get(key, table=RRS):
    hit = table.get(key)
    if hit and hit[0] > time.time():
        return hit
    return None


def closest(name):
    labels = name.split(".") if name else []
    for i in range(len(labels) + 1):
        zone = ".".join(labels[i:])
        hit = get(zone, DELEG)
        if hit:
            return hit[1]
    return [ROOT]


def lookup(name, depth):
    """One name, no CNAME following: returns ('A', [(ttl, ip)]) | ('CNAME', (ttl, target)) | ('NEG', rcode)."""
    ips = closest(name)
    for _ in range(30):
        _, rcode, (an, auth, add) = ask(ips, name)
        mine = [r for r in an if r[0] == name]
        if any(r[1] == A for r in mine):
            recs = [(r[2], r[3]) for r in mine if r[1] == A]
            put((name, A), min(t for t, _ in recs), [ip for _, ip in recs])
            return "A", recs
        cn = [r for r in mine if r[1] == CNAME]
        if cn:
            put((name, CNAME), cn[0][2], [cn[0][3]])
            return "CNAME", (cn[0][2], cn[0][3])
        soa = [r for r in auth if r[1] == SOA]
        if rcode == 3 or (rcode == 0 and not an and soa):
            put(name, soa[0][3][4] if soa else 0, 3 if rcode == 3 else 0, NEG)
            return "NEG", 3 if rcode == 3 else 0
        nsrecs = [r for r in auth if r[1] == NS]
        if rcode != 0 or not nsrecs:
            raise Fail("unexpected answer")
        zone = nsrecs[0][0]
        ttl = min(r[2] for r in nsrecs)
        names = [r[3] for r in nsrecs]
        glue = [r[3] for r in add if r[1] == A and r[0] in names]
        if not glue:
            if depth > 6:
                raise Fail("too deep")
            for ns in names:
                try:
                    rc, chain = resolve(ns, depth + 1)
                except Fail:
                    continue
                glue = [r[3] for r in chain if r[1] == A]
                if glue:
                    break
            if not glue:
                raise Fail("no address for the delegation")
        put(zone, ttl, glue, DELEG)
        ips = glue
    raise Fail("too many referrals")


def resolve(name, depth=0):
    """Returns (rcode, answer records [(name, type, ttl, data)])."""
    chain = []
    for _ in range(9):
        now = time.time()
        with LOCK:
            hit_a, hit_c, hit_n = get((name, A)), get((name, CNAME)), get(name, NEG)
        if hit_a:
            return 0, chain + [(name, A, int(hit_a[0] - now), ip) for ip in hit_a[1]]
        if hit_c:
            chain.append((name, CNAME, int(hit_c[0] - now), hit_c[1][0]))
            name = hit_c[1][0]
            continue
        if hit_n:
            return hit_n[1], chain
        kind, val = lookup(name, depth)
        if kind == "A":
            return 0, chain + [(name, A, ttl, ip) for ttl, ip in val]
        if kind == "CNAME":
            chain.append((name, CNAME, val[0], val[1]))
            name = val[1]
            continue
        return val, chain
    raise Fail("CNAME chain too long")


def rr(name, rtype, ttl, data):
    rd = socket.inet_aton(data) if rtype == A else enc_name(data)
    return enc_name(name) + struct.pack("!HHIH", rtype, 1, max(0, ttl), len(rd)) + rd


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        msg, sock = self.request
        try:
            ident, flags, qd = struct.unpack("!3H", msg[:6])
            qname, off = dec_name(msg, 12)
            qtype, qclass = struct.unpack("!HH", msg[off:off + 4])
            question = msg[12:off + 4]
        except (struct.error, Fail, IndexError):
            return
        rd = flags & 0x0100
        answers = []
        if qtype != A or qclass != 1:
            rcode = 4
        else:
            try:
                rcode, answers = resolve(qname)
            except (Fail, OSError, struct.error, IndexError, ValueError):
                rcode, answers = 2, []
        head = struct.pack("!6H", ident, 0x8000 | rd | 0x0080 | rcode, 1, len(answers), 0, 0)
        sock.sendto(head + question + b"".join(rr(*a) for a in answers), self.client_address)


class Server(socketserver.ThreadingUDPServer):
    daemon_threads = True


if __name__ == "__main__":
    Server(("127.0.0.1", PORT), Handler).serve_forever()
PY
cat > /app/resolver/run.sh <<'SH'
#!/bin/bash
exec python3 /app/resolver/resolver.py
SH
chmod +x /app/resolver/run.sh
