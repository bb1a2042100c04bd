#!/bin/bash
# Plausible but wrong: threaded and otherwise complete, but a file whose size is a multiple of the block size
# ends without the empty final block (the client cannot tell the transfer is over), and netascii converts LF
# only, leaving bare CRs unescaped.
set -euo pipefail
mkdir -p /app/tftpd
cat > /app/tftpd/server.py <<'PY'
"""Read-only TFTP server: RFC 1350 with the option extension (RFC 2347), blksize (2348) and tsize (2349)."""
import os
import socket
import struct
import sys
import threading

RRQ, WRQ, DATA, ACK, ERROR, OACK = 1, 2, 3, 4, 5, 6
TIMEOUT, RETRIES = 1.0, 5
MIN_BLK, MAX_BLK = 8, 65464


def error_packet(code, msg):
    return struct.pack("!HH", ERROR, code) + msg.encode() + b"\0"


def netascii(data):
    return data.replace(b"\n", b"\r\n")


def resolve(root, name):
    real_root = os.path.realpath(root)
    path = os.path.realpath(os.path.join(real_root, name.lstrip("/")))
    if path != real_root and not path.startswith(real_root + os.sep):
        return None, 2, "access violation"
    if not os.path.isfile(path):
        return None, 1, "file not found"
    return path, 0, ""


def parse_request(pkt):
    parts = pkt[2:].split(b"\0")
    if len(parts) < 3 or parts[-1] != b"":
        raise ValueError("malformed request")
    fields = [p.decode("latin-1") for p in parts[:-1]]
    name, mode, rest = fields[0], fields[1].lower(), fields[2:]
    opts = {}
    for i in range(0, len(rest) - 1, 2):
        opts[rest[i].lower()] = rest[i + 1]
    return name, mode, opts


def transfer(root, client, pkt):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    try:
        try:
            name, mode, opts = parse_request(pkt)
        except (ValueError, UnicodeDecodeError):
            sock.sendto(error_packet(4, "malformed request"), client)
            return
        if mode not in ("octet", "netascii"):
            sock.sendto(error_packet(4, f"unsupported mode {mode}"), client)
            return
        path, code, msg = resolve(root, name)
        if path is None:
            sock.sendto(error_packet(code, msg), client)
            return
        with open(path, "rb") as f:
            data = f.read()
        if mode == "netascii":
            data = netascii(data)
        blksize, accepted = 512, []
        if "blksize" in opts:
            try:
                b = int(opts["blksize"])
            except ValueError:
                b = -1
            if b < MIN_BLK:
                sock.sendto(error_packet(8, "blksize out of range"), client)
                return
            blksize = min(b, MAX_BLK)
            accepted.append(("blksize", str(blksize)))
        if "tsize" in opts:
            accepted.append(("tsize", str(len(data))))
        sock.settimeout(TIMEOUT)
        if accepted:
            oack = struct.pack("!H", OACK) + b"".join(k.encode() + b"\0" + v.encode() + b"\0" for k, v in accepted)
            if not exchange(sock, client, oack, 0):
                return
        nblocks = max(1, -(-len(data) // blksize))  # enough blocks to hold the data
        for n in range(1, nblocks + 1):
            block = n % 65536
            pkt = struct.pack("!HH", DATA, block) + data[(n - 1) * blksize:n * blksize]
            if not exchange(sock, client, pkt, block):
                return
    finally:
        sock.close()


def exchange(sock, client, pkt, block):
    """Send pkt and wait for ACK(block); retransmit on timeout; ignore duplicate ACKs."""
    tries = 0
    sock.sendto(pkt, client)
    while True:
        try:
            reply, addr = sock.recvfrom(65536)
        except socket.timeout:
            tries += 1
            if tries > RETRIES:
                return False
            sock.sendto(pkt, client)
            continue
        if addr != client:
            sock.sendto(error_packet(5, "unknown transfer ID"), addr)
            continue
        if len(reply) < 4:
            continue
        op, num = struct.unpack("!HH", reply[:4])
        if op == ACK and num == block:
            return True
        if op == ERROR:
            return False
        # duplicate or stale ACK: ignored, no retransmission


def main():
    port = int(os.environ.get("TFTP_PORT", "6969"))
    root = os.environ.get("TFTP_ROOT", "/srv/tftp")
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", port))
    while True:
        pkt, client = sock.recvfrom(65536)
        if len(pkt) < 2:
            continue
        op = struct.unpack("!H", pkt[:2])[0]
        if op == RRQ:
            threading.Thread(target=transfer, args=(root, client, pkt), daemon=True).start()
        elif op == WRQ:
            sock.sendto(error_packet(2, "read-only server"), client)
        else:
            sock.sendto(error_packet(4, "illegal operation"), client)


if __name__ == "__main__":
    sys.exit(main())
PY
cat > /app/tftpd/run.sh <<'SH'
#!/bin/bash
exec python3 /app/tftpd/server.py
SH
chmod +x /app/tftpd/run.sh
