#!/bin/bash
set -euo pipefail
mkdir -p /app/rx
cat > /app/rx/receiver.py <<'PY'
"""rx: selective-acknowledgement file receiver over UDP."""
import os
import re
import socket
import struct

PORT = int(os.environ.get("RX_PORT", "9000"))
OUT = os.environ.get("RX_DIR", "/var/lib/rx")
WINDOW = 64
M = 1 << 32
OPEN, DATA, FIN, RESET = 1, 2, 3, 4
sessions, closed = {}, {}


def reply(t, sid, seq, payload=b""):
    return b"RX\x01" + bytes([t]) + struct.pack(">II", sid, seq) + payload


def ack(s, sid):
    bits = 0
    for i in range(32):
        if (s["next"] + 1 + i) % M in s["buf"]:
            bits |= 1 << i
    return reply(0x82, sid, s["next"], struct.pack(">I", bits))


def handle(pkt):
    if len(pkt) < 12 or pkt[:3] != b"RX\x01":
        return None
    t = pkt[3]
    sid, seq = struct.unpack(">II", pkt[4:12])
    body = pkt[12:]
    if t == OPEN:
        if len(body) < 1 or len(body) != 1 + body[0] + 4:
            return None
        name = body[1:1 + body[0]].decode("latin-1")
        isn = struct.unpack(">I", body[1 + body[0]:])[0]
        if not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", name) or name in (".", ".."):
            return reply(0x84, sid, seq, b"\x02")
        s = sessions.get(sid)
        if s is not None:
            if s["name"] == name and s["isn"] == isn:
                return reply(0x81, sid, isn)
            return reply(0x84, sid, seq, b"\x03")
        if any(x["name"] == name for x in sessions.values()):
            return reply(0x84, sid, seq, b"\x03")
        closed.pop(sid, None)
        sessions[sid] = {"name": name, "isn": isn, "next": isn, "buf": {}, "data": bytearray(), "fin": None}
        return reply(0x81, sid, isn)
    if t == FIN and sid in closed and closed[sid] == seq and sid not in sessions:
        return reply(0x83, sid, seq)
    s = sessions.get(sid)
    if s is None:
        return reply(0x84, sid, seq, b"\x01") if t in (DATA, FIN) else None
    if t == RESET:
        del sessions[sid]
        return None
    if t == DATA:
        if not 1 <= len(body) <= 1200:
            return None
        off = (seq - s["next"]) % M
        limit = WINDOW if s["fin"] is None else min(WINDOW, (s["fin"] - s["next"]) % M)
        if off < limit and seq not in s["buf"]:
            s["buf"][seq] = body
            while s["next"] in s["buf"]:
                s["data"] += s["buf"].pop(s["next"])
                s["next"] = (s["next"] + 1) % M
        return ack(s, sid)
    if t == FIN:
        if body:
            return None
        off = (seq - s["next"]) % M
        if off >= WINDOW + 1 or any((k - s["next"]) % M >= off for k in s["buf"]):
            return ack(s, sid)
        s["fin"] = seq
        if off == 0:
            path = os.path.join(OUT, s["name"])
            with open(path + ".part", "wb") as f:
                f.write(s["data"])
                f.flush()
                os.fsync(f.fileno())
            os.replace(path + ".part", path)
            del sessions[sid]
            closed[sid] = seq
            return reply(0x83, sid, seq)
        return ack(s, sid)
    return None


def main():
    os.makedirs(OUT, exist_ok=True)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", PORT))
    while True:
        pkt, peer = sock.recvfrom(65535)
        out = handle(pkt)
        if out is not None:
            sock.sendto(out, peer)


main()
PY
cat > /app/rx/run.sh <<'SH'
#!/bin/bash
exec python3 /app/rx/receiver.py
SH
chmod +x /app/rx/run.sh
