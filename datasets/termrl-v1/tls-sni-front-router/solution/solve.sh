#!/bin/bash
set -euo pipefail
mkdir -p /app/frontdoor
cat > /app/frontdoor/router.py <<'PY'
"""Front door: classify each connection from its first bytes (TLS ClientHello SNI/ALPN, HTTP Host, SSH, other)."""
import asyncio
import os
import struct

CONF = os.environ.get("ROUTER_CONF", "/etc/frontdoor/routes.conf")
METHODS = [b"GET ", b"POST ", b"PUT ", b"DELETE ", b"HEAD ", b"OPTIONS ", b"PATCH ", b"CONNECT "]


class Bad(Exception):
    pass


def load():
    port, rules = None, []
    for line in open(CONF, encoding="utf-8"):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "listen":
            port = int(words[1])
            continue
        kind, pattern, backend, *opts = words
        host, _, bport = backend.rpartition(":")
        opt = {"proxy": False, "alpn": None}
        for o in opts:
            if o == "proxy":
                opt["proxy"] = True
            elif o.startswith("alpn="):
                opt["alpn"] = o[5:].encode()
        rules.append({"kind": kind, "pattern": pattern.lower(), "host": host, "port": int(bport), **opt})
    return port, rules


PORT, RULES = load()


def norm(name):
    name = name.lower()
    return name[:-1] if name.endswith(".") else name


def specificity(pattern, name):
    """None if no match, else a sortable rank (higher is more specific)."""
    if pattern == "*":
        return (0, 0)
    if pattern.startswith("*."):
        suffix = pattern[1:]
        if name.endswith(suffix) and len(name) > len(suffix):
            return (1, len(suffix))
        return None
    return (2, 0) if pattern == name else None


def choose(kind, name, alpns=()):
    best, best_key = None, None
    for i, r in enumerate(RULES):
        if r["kind"] != kind:
            continue
        rank = specificity(r["pattern"], name)
        if rank is None:
            continue
        if r["alpn"] is not None and r["alpn"] not in alpns:
            continue
        key = (rank, r["alpn"] is not None, -i)
        if best_key is None or key > best_key:
            best, best_key = r, key
    return best


def parse_client_hello(msg):
    """msg: the ClientHello body. Returns (server name or '', [alpn protocols])."""
    def need(pos, n):
        if pos + n > len(msg):
            raise Bad()

    pos = 2 + 32
    need(pos, 1)
    pos += 1 + msg[pos]
    need(pos, 2)
    pos += 2 + struct.unpack(">H", msg[pos:pos + 2])[0]
    need(pos, 1)
    pos += 1 + msg[pos]
    name, alpns = "", []
    if pos == len(msg):
        return name, alpns
    need(pos, 2)
    end = pos + 2 + struct.unpack(">H", msg[pos:pos + 2])[0]
    if end != len(msg):
        raise Bad()
    pos += 2
    while pos < end:
        need(pos, 4)
        etype, elen = struct.unpack(">HH", msg[pos:pos + 4])
        pos += 4
        need(pos, elen)
        ext = msg[pos:pos + elen]
        pos += elen
        if etype == 0 and len(ext) >= 2:
            p, lend = 2, 2 + struct.unpack(">H", ext[:2])[0]
            while p + 3 <= min(lend, len(ext)):
                ntype, nlen = ext[p], struct.unpack(">H", ext[p + 1:p + 3])[0]
                if ntype == 0 and not name:
                    name = ext[p + 3:p + 3 + nlen].decode("latin-1")
                p += 3 + nlen
        elif etype == 16 and len(ext) >= 2:
            p = 2
            while p < len(ext):
                n = ext[p]
                alpns.append(bytes(ext[p + 1:p + 1 + n]))
                p += 1 + n
    return norm(name), alpns


async def read_more(reader, buf):
    d = await reader.read(65536)
    if not d:
        raise Bad()
    buf += d


async def classify(reader):
    """Returns (rule, consumed bytes)."""
    buf = bytearray()
    await read_more(reader, buf)
    if buf[0] == 0x16:
        hs, pos = bytearray(), 0
        while True:
            while len(buf) < pos + 5:
                await read_more(reader, buf)
            rtype, _, rlen = struct.unpack(">BHH", buf[pos:pos + 5])
            if rtype != 0x16 or rlen == 0 or rlen > 16384:
                raise Bad()
            while len(buf) < pos + 5 + rlen:
                await read_more(reader, buf)
            hs += buf[pos + 5:pos + 5 + rlen]
            pos += 5 + rlen
            if len(hs) >= 4:
                if hs[0] != 1:
                    raise Bad()
                mlen = int.from_bytes(hs[1:4], "big")
                if mlen > 65536:
                    raise Bad()
                if len(hs) >= 4 + mlen:
                    name, alpns = parse_client_hello(bytes(hs[4:4 + mlen]))
                    return choose("tls", name, alpns), buf
    while True:
        if buf.startswith(b"SSH-"):
            return choose("ssh", ""), buf
        method = any(buf.startswith(m) for m in METHODS)
        if method:
            while b"\r\n\r\n" not in buf:
                if len(buf) > 16384:
                    raise Bad()
                await read_more(reader, buf)
            head = bytes(buf[:buf.index(b"\r\n\r\n")]).decode("latin-1")
            host = ""
            for line in head.split("\r\n")[1:]:
                k, sep, v = line.partition(":")
                if sep and k.strip().lower() == "host":
                    host = v.strip()
                    if host.startswith("["):
                        host = host[:host.find("]") + 1]
                    else:
                        host = host.rsplit(":", 1)[0]
                    break
            return choose("http", norm(host)), buf
        if any(p.startswith(bytes(buf)) for p in METHODS + [b"SSH-"]):
            try:
                await read_more(reader, buf)
            except Bad:
                return choose("other", ""), buf
            continue
        return choose("other", ""), buf


async def pump(reader, writer):
    try:
        while True:
            d = await reader.read(65536)
            if not d:
                break
            writer.write(d)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        pass


LIVE = set()  # strong references: asyncio only keeps weak ones to running tasks


async def client(reader, writer):
    task = asyncio.current_task()
    LIVE.add(task)
    try:
        try:
            rule, buf = await classify(reader)
        except (Bad, ConnectionError, OSError):
            return
        if rule is None:
            return
        try:
            br, bw = await asyncio.open_connection(rule["host"], rule["port"])
        except OSError:
            return
        if rule["proxy"]:
            cip, cport = writer.get_extra_info("peername")[:2]
            lip, lport = writer.get_extra_info("sockname")[:2]
            bw.write(f"PROXY TCP4 {cip} {lip} {cport} {lport}\r\n".encode())
        bw.write(bytes(buf))
        await asyncio.gather(pump(reader, bw), pump(br, writer))
        bw.close()
    finally:
        writer.close()
        LIVE.discard(task)


async def main():
    server = await asyncio.start_server(client, "127.0.0.1", PORT)
    async with server:
        await server.serve_forever()


asyncio.run(main())
PY
cat > /app/frontdoor/run.sh <<'SH'
#!/bin/bash
exec python3 /app/frontdoor/router.py
SH
chmod +x /app/frontdoor/run.sh
