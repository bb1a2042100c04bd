#!/bin/bash
set -euo pipefail
mkdir -p /app/pp2
cat > /app/pp2/pp2.py <<'PY'
"""Backend service that reads a PROXY protocol v2 header, reports it as JSON, then echoes lines."""
import ipaddress
import json
import os
import socketserver
import struct

SIG = b"\r\n\r\n\x00\r\nQUIT\n"
TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    TABLE.append(c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


class Bad(Exception):
    pass


def parse(header):
    ver_cmd, fam_proto, length = header[12], header[13], struct.unpack("!H", header[14:16])[0]
    if header[:12] != SIG or ver_cmd >> 4 != 2 or ver_cmd & 0xF > 1 or fam_proto >> 4 > 3 or fam_proto & 0xF > 2:
        raise Bad("bad header")
    cmd, fam, proto = ver_cmd & 0xF, fam_proto >> 4, fam_proto & 0xF
    body = header[16:]
    need = {0: 0, 1: 12, 2: 36, 3: 216}[fam]
    if length < need:
        raise Bad("bad header")
    src = dst = None
    if cmd == 1 and fam == 1:
        a, b, p, q = struct.unpack("!4s4sHH", body[:12])
        src, dst = f"{ipaddress.IPv4Address(a)}:{p}", f"{ipaddress.IPv4Address(b)}:{q}"
    elif cmd == 1 and fam == 2:
        a, b, p, q = struct.unpack("!16s16sHH", body[:36])
        src, dst = f"[{ipaddress.IPv6Address(a)}]:{p}", f"[{ipaddress.IPv6Address(b)}]:{q}"
    elif cmd == 1 and fam == 3:
        src = body[:108].split(b"\0", 1)[0].decode("utf-8", "replace")
        dst = body[108:216].split(b"\0", 1)[0].decode("utf-8", "replace")
    tlvs, off, crc_at = {}, need, None
    while off < length:
        if off + 3 > length:
            raise Bad("bad header")
        t, n = body[off], struct.unpack("!H", body[off + 1:off + 3])[0]
        if off + 3 + n > length:
            raise Bad("bad header")
        tlvs[str(t)] = body[off + 3:off + 3 + n].hex()
        if t == 3:
            crc_at = (16 + off + 3, n)
        off += 3 + n
    if crc_at is not None:
        pos, n = crc_at
        zeroed = header[:pos] + b"\0" * n + header[pos + n:]
        if n != 4 or struct.unpack("!I", header[pos:pos + 4])[0] != crc32c(zeroed):
            raise Bad("checksum")
    return {"command": "PROXY" if cmd else "LOCAL", "family": ["unspec", "inet", "inet6", "unix"][fam],
            "protocol": ["unspec", "stream", "dgram"][proto], "src": src, "dst": dst, "tlvs": tlvs}


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        head = self.rfile.read(16)
        if len(head) < 16:
            return
        try:
            if head[:12] != SIG:
                raise Bad("bad header")
            length = struct.unpack("!H", head[14:16])[0]
            rest = self.rfile.read(length)
            if len(rest) < length:
                return
            info = parse(head + rest)
        except Bad as e:
            self.wfile.write(f"ERR {e}\n".encode())
            return
        self.wfile.write(json.dumps(info).encode() + b"\n")
        self.wfile.flush()
        for line in self.rfile:
            self.wfile.write(line)
            self.wfile.flush()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    Server(("127.0.0.1", int(os.environ.get("PP2_PORT", "8443"))), Handler).serve_forever()
PY
cat > /app/pp2/run.sh <<'SH'
#!/bin/bash
exec python3 /app/pp2/pp2.py
SH
chmod +x /app/pp2/run.sh
