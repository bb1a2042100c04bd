"""Synthetic packet captures of HTTP uploads, with the uploads they hold (the expected answer).

build(seed, **opts) -> (pcap_bytes, manifest, files)
  manifest: the list carve.py must write (order, fields), files: {name: bytes} of the final OUTDIR.
"""
import gzip
import hashlib
import random
import struct
from urllib.parse import quote

NAMES = ["report.pdf", "db-dump.sql", "keys.tar", "notes 2026.txt", "photo_01.jpg", "id_rsa",
         "payload.bin", "config (1).yml", "results.csv", "backup.7z", "ünïcode.txt", "a+b=c.dat"]


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def ip4(a):
    return bytes(int(x) for x in a.split("."))


class Pkt:
    def __init__(self, src, dst, sport, dport, seq, ack, flags, payload=b"", conn=None, off=None):
        self.src, self.dst, self.sport, self.dport = src, dst, sport, dport
        self.seq, self.ack, self.flags, self.payload = seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, flags, payload
        self.conn, self.off = conn, off  # client data: connection id and stream offset
        self.raw = None                   # a non-TCP frame body (noise)


def tcp_bytes(p, rng, ipopts):
    opts = b""
    if rng.random() < 0.6:
        opts = b"\x01\x01\x08\x0a" + struct.pack("!II", rng.getrandbits(32), rng.getrandbits(32))
    doff = (20 + len(opts)) // 4
    hdr = struct.pack("!HHIIBBHHH", p.sport, p.dport, p.seq, p.ack, doff << 4, p.flags, 64240, 0, 0) + opts
    pseudo = ip4(p.src) + ip4(p.dst) + struct.pack("!BBH", 0, 6, len(hdr) + len(p.payload))
    c = csum(pseudo + hdr + p.payload)
    hdr = hdr[:16] + struct.pack("!H", c) + hdr[18:]
    seg = hdr + p.payload
    opt = b""
    if ipopts and rng.random() < 0.5:
        opt = bytes([7, 11, 4]) + b"\0" * 8 + b"\x01"  # record route (11 bytes) + NOP = 12
    ihl = (20 + len(opt)) // 4
    iph = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, 20 + len(opt) + len(seg), rng.getrandbits(16), 0x4000,
                      64, 6, 0, ip4(p.src), ip4(p.dst)) + opt
    iph = iph[:10] + struct.pack("!H", csum(iph)) + iph[12:]
    return iph + seg


def noise_frame(rng):
    kind = rng.choice(["arp", "udp", "ip6"])
    if kind == "arp":
        return 0x0806, bytes(28)
    if kind == "ip6":
        return 0x86DD, b"\x60" + bytes(7) + bytes(32) + rng.randbytes(20)
    body = struct.pack("!HHHH", 53000 + rng.randrange(999), 53, 8 + 30, 0) + rng.randbytes(30)
    iph = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(body), 1, 0, 64, 17, 0, ip4("10.0.0.2"), ip4("10.0.0.53"))
    return 0x0800, iph + body


def frame(link, ethertype, l3, rng, vlan):
    if link == "sll":
        return struct.pack("!HHH", 0 if rng.random() < 0.5 else 4, 1, 6) + rng.randbytes(6) + b"\0\0" + \
            struct.pack("!H", ethertype) + l3
    tags = b""
    if vlan:
        if rng.random() < 0.3:
            tags += struct.pack("!HH", 0x88A8, 100)
        tags += struct.pack("!HH", 0x8100, rng.randrange(1, 4094))
    f = rng.randbytes(6) + rng.randbytes(6) + tags + struct.pack("!H", ethertype) + l3
    if len(f) < 60:
        f += b"\0" * (60 - len(f))  # Ethernet minimum frame: padding after the IP packet
    return f


def pcap(frames, link, endian, nanos, t0, rng):
    magic = 0xA1B23C4D if nanos else 0xA1B2C3D4
    out = [struct.pack(endian + "IHHiIII", magic, 2, 4, 0, 0, 262144, 113 if link == "sll" else 1)]
    t = t0
    for f in frames:
        t += rng.randrange(30_000, 9_000_000)  # ns
        sec, ns = divmod(t, 1_000_000_000)
        frac = ns if nanos else ns // 1000
        out.append(struct.pack(endian + "IIII", sec, frac, len(f), len(f)) + f)
    return b"".join(out)


def make_request(rng, kind, name_override=None):
    """-> (request bytes, upload dict or None)"""
    name = name_override or rng.choice(NAMES)
    target = "/" + rng.choice(["upload", "files/in", "api/v2/store"]) + "/" + quote(name)
    if rng.random() < 0.4:
        target += "?session=" + rng.randbytes(4).hex() + "&x=/y"
    host = "Host: files.internal\r\n"
    cl = rng.choice(["Content-Length", "content-length", "CONTENT-LENGTH"])
    if kind == "get":
        return f"GET {target} HTTP/1.1\r\n{host}Accept: */*\r\n\r\n".encode(), None
    if kind == "post":
        body = b"note=" + rng.randbytes(40).hex().encode() + b"&raw=PUT /upload/evil.bin HTTP/1.1\r\n" \
            + b"Content-Length: 5\r\n\r\nhello"
        return f"POST /api/notes HTTP/1.1\r\n{host}{cl}: {len(body)}\r\n\r\n".encode() + body, None
    size = rng.choice([0, rng.randrange(1, 200), rng.randrange(200, 6000), rng.randrange(6000, 40000)])
    data = bytes(rng.getrandbits(8) for _ in range(size)) if rng.random() < 0.5 else \
        b"".join(rng.choice([b"PUT /x HTTP/1.1\r\n", b"0\r\n\r\n", b"line of text\n", b"\r\n\r\n", b"\x00\xff"])
                 for _ in range(size // 8))
    body, headers = data, [host.strip(), "User-Agent: curl/7.88.1"]
    if kind in ("gzip", "gzip-chunked"):
        body = gzip.compress(data, mtime=0)
        headers.append(rng.choice(["Content-Encoding: gzip", "content-encoding: gzip"]))
    if kind in ("chunked", "gzip-chunked"):
        pieces, i = [], 0
        while i < len(body):
            n = rng.randrange(1, 5000)
            ext = ";sig=" + rng.randbytes(3).hex() if rng.random() < 0.3 else ""
            size_s = format(len(body[i:i + n]), "x" if rng.random() < 0.5 else "X")
            pieces.append(f"{size_s}{ext}\r\n".encode() + body[i:i + n] + b"\r\n")
            i += n
        trailer = "X-Digest: sha-256\r\n" if rng.random() < 0.5 else ""
        body = b"".join(pieces) + f"0\r\n{trailer}\r\n".encode()
        headers.append(rng.choice(["Transfer-Encoding: chunked", "transfer-encoding: chunked"]))
    else:
        headers.append(f"{cl}:{rng.choice([' ', '', '  '])}{len(body)}")
    rng.shuffle(headers)
    req = f"PUT {target} HTTP/1.1\r\n".encode() + "".join(h + "\r\n" for h in headers).encode() + b"\r\n" + body
    return req, {"target": target, "file": name, "data": data}


class Conn:
    def __init__(self, cid, client, cport, server, sport, isn_c, isn_s):
        self.cid, self.client, self.cport, self.server, self.sport = cid, client, cport, server, sport
        self.isn_c, self.isn_s = isn_c, isn_s
        self.requests = []  # (start offset, end offset, upload or None)
        self.stream = b""
        self.hole = None     # (start, end) of client bytes never captured

    def add(self, req, upload):
        self.requests.append((len(self.stream), len(self.stream) + len(req), upload))
        self.stream += req

    def packets(self, rng, reorder, retrans, tiny):
        c, s = (self.client, self.cport), (self.server, self.sport)
        P = lambda a, b, *r, **k: Pkt(a[0], b[0], a[1], b[1], *r, **k)
        out = [P(c, s, self.isn_c, 0, 0x02), P(s, c, self.isn_s, self.isn_c + 1, 0x12),
               P(c, s, self.isn_c + 1, self.isn_s + 1, 0x10)]
        segs, i = [], 0
        while i < len(self.stream):
            n = rng.randrange(1, 8) if tiny and rng.random() < 0.25 else rng.randrange(200, 1461)
            segs.append((i, self.stream[i:i + n]))
            i += n
        data = [P(c, s, self.isn_c + 1 + o, self.isn_s + 1, 0x18, b, conn=self.cid, off=o) for o, b in segs]
        if self.hole is not None:
            h = self.hole_index(segs)
            self.hole = (segs[h][0], segs[h][0] + len(segs[h][1]))
            del data[h]
        if retrans:
            extra = []
            for k in range(len(segs) - 1):
                if rng.random() < 0.12:  # exact retransmission
                    o, b = segs[k]
                    extra.append((k + rng.randrange(1, 4), P(c, s, self.isn_c + 1 + o, self.isn_s + 1, 0x18, b,
                                                                 conn=self.cid, off=o)))
                elif rng.random() < 0.08:  # re-segmented: covers the end of one and the start of the next
                    o = segs[k][0] + len(segs[k][1]) // 2
                    b = self.stream[o:o + len(segs[k][1])]
                    extra.append((k + rng.randrange(1, 4), P(c, s, self.isn_c + 1 + o, self.isn_s + 1, 0x18, b,
                                                                 conn=self.cid, off=o)))
            for pos, p in sorted(extra, key=lambda e: -e[0]):
                data.insert(min(pos, len(data)), p)
        if reorder:
            for k in range(len(data) - 1):
                if rng.random() < 0.25:
                    j = min(len(data) - 1, k + rng.randrange(1, 4))
                    data[k], data[j] = data[j], data[k]
        out += data
        # responses (server to client) and ACKs, interleaved after the data
        ack = self.isn_c + 1 + len(self.stream)
        for _ in self.requests:
            out.append(P(s, c, self.isn_s + 1, ack, 0x18, b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"))
        out += [P(c, s, self.isn_c + 1 + len(self.stream), self.isn_s + 1, 0x11),
                P(s, c, self.isn_s + 1, ack + 1, 0x11), P(c, s, ack + 1, self.isn_s + 2, 0x10)]
        return out

    def hole_index(self, segs):
        for k, (o, b) in enumerate(segs):
            for st, en, up in self.requests:
                if up is not None and up["hole"] and o > st + 200 and o + len(b) < en:
                    return k
        raise AssertionError("no place for a hole")


def build(seed, *, link="eth", endian="<", nanos=False, vlan=False, ipopts=False, reorder=False,
          retrans=False, tiny=True, wrap=False, reuse=False, hole=False, kinds=("plain",), nconn=3,
          per_conn=(1, 3), extra_names=()):
    rng = random.Random(seed)
    server = f"10.20.{rng.randrange(1, 250)}.{rng.randrange(2, 250)}"
    conns, cid = [], 0
    names = list(extra_names)
    for k in range(nconn):
        client = f"192.168.{rng.randrange(0, 3)}.{rng.randrange(10, 60)}"
        isn = (2**32 - rng.randrange(300, 9000)) if wrap and k % 2 == 0 else rng.getrandbits(32)
        c = Conn(cid, client, rng.randrange(33000, 61000), server, rng.choice([80, 8080]), isn, rng.getrandbits(32))
        cid += 1
        nreq = rng.randint(*per_conn)
        for r in range(nreq):
            kind = rng.choice(kinds)
            if kind == "mixed":
                kind = rng.choice(["get", "post", "plain", "chunked"])
            req, up = make_request(rng, kind, names.pop() if names and kind not in ("get", "post") else None)
            if up is not None:
                up["hole"] = False
            c.add(req, up)
        conns.append(c)
    if hole:
        hc = conns[0]
        # ensure a large upload in the middle of the connection for the hole
        req, up = make_request(rng, "plain")
        while len(up["data"]) < 3000:
            req, up = make_request(rng, "plain")
        up["hole"] = True
        hc.add(req, up)
        req2, up2 = make_request(rng, "plain")
        up2["hole"] = False
        hc.add(req2, up2)
        hc.hole = True
    lists = {c.cid: c.packets(rng, reorder and not c.hole, retrans and not c.hole, tiny) for c in conns}
    after = {}
    if reuse:  # a later connection on the same 4-tuple, after the first one closed
        old = conns[0]
        c = Conn(cid, old.client, old.cport, old.server, old.sport, rng.getrandbits(32), rng.getrandbits(32))
        for r in range(2):
            req, up = make_request(rng, "plain")
            up["hole"] = False
            c.add(req, up)
        conns.append(c)
        lists[c.cid] = c.packets(rng, reorder, retrans, tiny)
        after[c.cid] = old.cid
    # merge, keeping each connection's order; a reused tuple starts after its predecessor ended
    merged, pos, done = [], {k: 0 for k in lists}, set()
    while len(done) < len(lists):
        ready = [k for k in lists if k not in done and (k not in after or after[k] in done)]
        k = rng.choice(ready)
        merged.append(lists[k][pos[k]])
        pos[k] += 1
        if pos[k] == len(lists[k]):
            done.add(k)
        if rng.random() < 0.05:
            noise = Pkt("0", "0", 0, 0, 0, 0, 0)
            noise.raw = noise_frame(rng)
            merged.append(noise)
    frames = []
    for p in merged:
        if p.raw is not None:
            frames.append(frame(link, p.raw[0], p.raw[1], rng, vlan))
        else:
            frames.append(frame(link, 0x0800, tcp_bytes(p, rng, ipopts), rng, vlan))
    blob = pcap(frames, link, endian, nanos, rng.randrange(1_700_000_000, 1_800_000_000) * 10**9, rng)

    # expected answer
    first_seen = {}
    for idx, p in enumerate(merged):
        if p.conn is None or p.raw is not None:
            continue
        c = conns[p.conn]
        for ri, (st, en, up) in enumerate(c.requests):
            if p.off < en and p.off + len(p.payload) > st:
                first_seen.setdefault((p.conn, ri), idx)
    manifest, files, entries = [], {}, []
    for c in conns:
        for ri, (st, en, up) in enumerate(c.requests):
            if c.hole and st >= c.hole[1]:
                break  # nothing after the hole
            if up is None:
                continue
            entries.append((first_seen[(c.cid, ri)], c, up))
    for _, c, up in sorted(entries, key=lambda e: e[0]):
        ok = not up["hole"]
        manifest.append({"client": f"{c.client}:{c.cport}", "server": f"{c.server}:{c.sport}",
                         "target": up["target"], "file": up["file"], "complete": ok,
                         "bytes": len(up["data"]) if ok else None,
                         "sha256": hashlib.sha256(up["data"]).hexdigest() if ok else None})
        if ok:
            files[up["file"]] = up["data"]
    return blob, manifest, files
