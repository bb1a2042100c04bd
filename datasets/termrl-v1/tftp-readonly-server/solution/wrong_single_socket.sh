#!/bin/bash
# Plausible but wrong: the classic first attempt: every transfer is served from the listening socket, one
# at a time, so a second client waits until the first transfer is over and stray packets are taken for ACKs.
set -euo pipefail
mkdir -p /app/tftpd
cat > /app/tftpd/server.py <<'PY'
import os
import socket
import struct

root = os.environ.get("TFTP_ROOT", "/srv/tftp")
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", int(os.environ.get("TFTP_PORT", "6969"))))


def err(code, msg, addr):
    sock.sendto(struct.pack("!HH", 5, code) + msg.encode() + b"\0", addr)


while True:
    pkt, client = sock.recvfrom(65536)
    op = struct.unpack("!H", pkt[:2])[0]
    if op == 2:
        err(2, "read only", client)
        continue
    if op != 1:
        err(4, "illegal", client)
        continue
    parts = pkt[2:].split(b"\0")
    name, mode = parts[0].decode(), parts[1].decode().lower()
    opts = {parts[i].decode().lower(): parts[i + 1].decode() for i in range(2, len(parts) - 2, 2)}
    if mode not in ("octet", "netascii"):
        err(4, "mode", client)
        continue
    path = os.path.realpath(os.path.join(root, name.lstrip("/")))
    if not path.startswith(os.path.realpath(root) + "/"):
        err(2, "access violation", client)
        continue
    if not os.path.isfile(path):
        err(1, "not found", client)
        continue
    data = open(path, "rb").read()
    if mode == "netascii":
        data = data.replace(b"\r", b"\r\0").replace(b"\n", b"\r\n")
    blk = 512
    acc = []
    if "blksize" in opts:
        b = int(opts["blksize"])
        if b < 8:
            err(8, "blksize", client)
            continue
        blk = min(b, 65464)
        acc.append(("blksize", str(blk)))
    if "tsize" in opts:
        acc.append(("tsize", str(len(data))))
    sock.settimeout(5)
    try:
        if acc:
            sock.sendto(struct.pack("!H", 6) + b"".join(k.encode() + b"\0" + v.encode() + b"\0" for k, v in acc), client)
            sock.recvfrom(65536)
        for n in range(1, len(data) // blk + 2):
            sock.sendto(struct.pack("!HH", 3, n % 65536) + data[(n - 1) * blk:n * blk], client)
            sock.recvfrom(65536)
    except socket.timeout:
        pass
    sock.settimeout(None)
PY
printf '#!/bin/bash\nexec python3 /app/tftpd/server.py\n' > /app/tftpd/run.sh
chmod +x /app/tftpd/run.sh
