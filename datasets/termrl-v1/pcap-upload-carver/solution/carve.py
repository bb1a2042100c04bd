#!/usr/bin/env python3
"""carve.py CAPTURE OUTDIR: recover the HTTP PUT uploads of a libpcap capture."""
import gzip
import hashlib
import json
import os
import struct
import sys
from urllib.parse import unquote

M32 = 1 << 32


def read_pcap(path):
    data = open(path, "rb").read()
    magic = data[:4]
    for endian in "<>":
        m = struct.unpack(endian + "I", magic)[0]
        if m in (0xA1B2C3D4, 0xA1B23C4D):
            nanos = m == 0xA1B23C4D
            break
    else:
        sys.exit(f"{path}: not a libpcap file")
    link = struct.unpack(endian + "I", data[20:24])[0]
    pos, idx = 24, 0
    while pos + 16 <= len(data):
        sec, frac, incl, _orig = struct.unpack(endian + "IIII", data[pos:pos + 16])
        pkt = data[pos + 16:pos + 16 + incl]
        pos += 16 + incl
        yield idx, sec + frac / (1e9 if nanos else 1e6), link, pkt
        idx += 1


def ipv4_of(link, frame):
    if link == 1:
        off, et = 12, None
        while True:
            et = struct.unpack("!H", frame[off:off + 2])[0]
            if et in (0x8100, 0x88A8, 0x9100):
                off += 4
                continue
            break
        l3 = frame[off + 2:]
    elif link == 113:
        et = struct.unpack("!H", frame[14:16])[0]
        l3 = frame[16:]
    else:
        return None
    if et != 0x0800 or len(l3) < 20 or l3[0] >> 4 != 4:
        return None
    return l3


def tcp_segments(path):
    for idx, ts, link, frame in read_pcap(path):
        ip = ipv4_of(link, frame)
        if ip is None or ip[9] != 6:
            continue
        ihl = (ip[0] & 15) * 4
        total = struct.unpack("!H", ip[2:4])[0]
        ip = ip[:total]  # drop link-layer padding
        t = ip[ihl:]
        sport, dport, seq, ack, offf, flags = struct.unpack("!HHIIBB", t[:14])
        payload = t[(offf >> 4) * 4:]
        src = ".".join(map(str, ip[12:16]))
        dst = ".".join(map(str, ip[16:20]))
        yield idx, (src, sport), (dst, dport), seq, flags, payload


class Stream:
    def __init__(self, client, server, isn):
        self.client, self.server, self.isn = client, server, isn
        self.chunks = []  # (offset, bytes, packet index)
        self.closed = False


def streams(path):
    live, done = {}, []
    for idx, src, dst, seq, flags, payload in tcp_segments(path):
        syn, ackf, fin = flags & 2, flags & 16, flags & 1
        key = (src, dst)
        if syn and not ackf:
            st = live.get(key)
            if st is not None and st.isn == seq:
                continue  # retransmitted SYN
            if st is not None:
                done.append(st)
            live[key] = Stream(src, dst, seq)
            continue
        st = live.get(key)
        if st is None:
            continue  # server side, or a connection whose SYN we never saw
        if payload:
            st.chunks.append(((seq - st.isn - 1) % M32, payload, idx))
    return done + list(live.values())


def assemble(st):
    """-> (contiguous bytes from offset 0, first-seen packet index per byte, whether data is missing)"""
    end = max((o + len(b) for o, b, _ in st.chunks), default=0)
    buf, seen = bytearray(end), [None] * end
    for o, b, idx in st.chunks:
        for i in range(len(b)):
            if seen[o + i] is None:
                buf[o + i] = b[i]
                seen[o + i] = idx
            elif idx < seen[o + i]:
                seen[o + i] = idx
    n = 0
    while n < end and seen[n] is not None:
        n += 1
    return bytes(buf[:n]), seen, n < end


class Incomplete(Exception):
    pass


def need(buf, pos, n):
    if pos + n > len(buf):
        raise Incomplete
    return buf[pos:pos + n]


def line(buf, pos):
    j = buf.find(b"\r\n", pos)
    if j < 0:
        raise Incomplete
    return buf[pos:j], j + 2


def parse_requests(buf):
    pos = 0
    while pos < len(buf):
        start = pos
        head = None
        try:
            req, pos = line(buf, pos)
            method, target, _ = req.decode("latin-1").split(" ", 2)
            head = (method, target)
            headers = {}
            while True:
                h, pos = line(buf, pos)
                if not h:
                    break
                k, _, v = h.decode("latin-1").partition(":")
                headers[k.strip().lower()] = v.strip()
            if "chunked" in headers.get("transfer-encoding", "").lower():
                body = b""
                while True:
                    sz, pos = line(buf, pos)
                    n = int(sz.split(b";")[0].strip(), 16)
                    if n == 0:
                        while True:
                            t, pos = line(buf, pos)
                            if not t:
                                break
                        break
                    body += need(buf, pos, n)
                    pos += n
                    if need(buf, pos, 2) != b"\r\n":
                        raise ValueError("bad chunk")
                    pos += 2
            else:
                n = int(headers.get("content-length", "0"))
                body = need(buf, pos, n)
                pos += n
            if "gzip" in headers.get("content-encoding", "").lower():
                body = gzip.decompress(body)
            yield start, pos, method, target, body
        except Incomplete:
            if head is not None:
                yield start, len(buf), head[0], head[1], None
            return


def main():
    cap, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    found = []
    for st in streams(cap):
        buf, seen, missing = assemble(st)
        for start, end, method, target, body in parse_requests(buf):
            if method != "PUT":
                continue
            first = min(s for s in seen[start:end] if s is not None)
            path = target.split("?", 1)[0]
            name = unquote(path.rsplit("/", 1)[-1])
            found.append((first, st, target, name, body))
    found.sort(key=lambda f: f[0])
    manifest = []
    for first, st, target, name, body in found:
        ok = body is not None
        manifest.append({"client": "%s:%d" % st.client, "server": "%s:%d" % st.server, "target": target,
                         "file": name, "complete": ok, "bytes": len(body) if ok else None,
                         "sha256": hashlib.sha256(body).hexdigest() if ok else None})
        if ok:
            with open(os.path.join(out, name), "wb") as f:
                f.write(body)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)


if __name__ == "__main__":
    main()
