#!/bin/bash
set -euo pipefail
mkdir -p /app/kexprobe
cat > /app/kexprobe/probe.py <<'PY'
"""SSH transport probe: version exchange, KEXINIT, algorithm negotiation (RFC 4253 7.1), reported in a DISCONNECT."""
import os
import socket
import struct
import threading

PORT = int(os.environ.get("KEXPROBE_PORT", "2222"))
CONF = os.environ.get("KEXPROBE_CONF", "/etc/kexprobe/kexprobe.conf")
AEAD = {"chacha20-poly1305@openssh.com", "aes128-gcm@openssh.com", "aes256-gcm@openssh.com"}


def load():
    c = {}
    for line in open(CONF, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            k, _, v = line.partition("=")
            c[k.strip()] = [a.strip() for a in v.split(",") if a.strip()]
    return c


C = load()


class Closed(Exception):
    pass


def string(b):
    return struct.pack(">I", len(b)) + b


def packet(payload):
    pad = 4 + (-(5 + len(payload) + 4)) % 8
    return struct.pack(">IB", 1 + len(payload) + pad, pad) + payload + os.urandom(pad)


def disconnect(reason, text):
    return packet(bytes([1]) + struct.pack(">I", reason) + string(text.encode()) + string(b""))


class Conn:
    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def fill(self):
        d = self.sock.recv(65536)
        if not d:
            raise Closed()
        self.buf += d

    def line(self):
        while b"\n" not in self.buf:
            if len(self.buf) > 255:
                return None
            self.fill()
        i = self.buf.index(b"\n")
        line, self.buf = self.buf[:i], self.buf[i + 1:]
        if len(line) + 1 > 255:
            return None
        return line.rstrip(b"\r")

    def packet(self):
        while len(self.buf) < 5:
            self.fill()
        length, pad = struct.unpack(">IB", self.buf[:5])
        if length > 35000 or length < 5 or (length + 4) % 8 or pad < 4 or pad > length - 1:
            return None
        while len(self.buf) < 4 + length:
            self.fill()
        payload = self.buf[5:4 + length - pad]
        self.buf = self.buf[4 + length:]
        return payload


def name_lists(payload):
    pos, out = 17, []
    for _ in range(10):
        (n,) = struct.unpack(">I", payload[pos:pos + 4])
        if pos + 4 + n > len(payload):
            raise ValueError
        raw = payload[pos + 4:pos + 4 + n].decode("ascii")
        out.append([a for a in raw.split(",")] if raw else [])
        pos += 4 + n
    if pos + 5 > len(payload):
        raise ValueError
    return out


def pick(client, server):
    for a in client:
        if a in server:
            return a
    return None


def negotiate(lists):
    kex, hostkey, enc_cs, enc_sc, mac_cs, mac_sc, comp_cs, comp_sc = lists[:8]
    result = []
    for label, cl, sv in (("kex", kex, C["kex"]), ("host key", hostkey, C["hostkey"]),
                          ("cipher c2s", enc_cs, C["ciphers"]), ("cipher s2c", enc_sc, C["ciphers"])):
        a = pick(cl, sv)
        if a is None:
            return 3, "no matching " + label
        result.append(a)
    for label, cl, cipher in (("mac c2s", mac_cs, result[2]), ("mac s2c", mac_sc, result[3])):
        if cipher in AEAD:
            result.append("<implicit>")
            continue
        a = pick(cl, C["macs"])
        if a is None:
            return 3, "no matching " + label
        result.append(a)
    for label, cl in (("compression c2s", comp_cs), ("compression s2c", comp_sc)):
        a = pick(cl, C["compression"])
        if a is None:
            return 3, "no matching " + label
        result.append(a)
    keys = ["kex", "hostkey", "cipher_c2s", "cipher_s2c", "mac_c2s", "mac_s2c", "comp_c2s", "comp_s2c"]
    return 11, ";".join("%s=%s" % kv for kv in zip(keys, result))


def serve(sock):
    c = Conn(sock)
    try:
        sock.sendall(b"SSH-2.0-KexProbe_1.0\r\n")
        ident = c.line()
        if ident is None or not (ident.startswith(b"SSH-2.0-") or ident.startswith(b"SSH-1.99-")):
            sock.sendall(b"Protocol mismatch.\r\n")
            return
        lists = [C["kex"], C["hostkey"], C["ciphers"], C["ciphers"], C["macs"], C["macs"],
                 C["compression"], C["compression"], [], []]
        kexinit = bytes([20]) + os.urandom(16) + b"".join(string(",".join(l).encode()) for l in lists) + b"\0" + b"\0" * 4
        sock.sendall(packet(kexinit))
        while True:
            payload = c.packet()
            if payload is None:
                sock.sendall(disconnect(2, "bad packet"))
                return
            if payload[:1] in (b"\x02", b"\x04"):
                continue
            if payload[:1] != b"\x14":
                sock.sendall(disconnect(2, "expected KEXINIT"))
                return
            try:
                client_lists = name_lists(payload)
            except (ValueError, struct.error, UnicodeDecodeError):
                sock.sendall(disconnect(2, "bad KEXINIT"))
                return
            reason, text = negotiate(client_lists)
            sock.sendall(disconnect(reason, text))
            return
    except (Closed, OSError):
        pass
    finally:
        sock.close()


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", PORT))
    s.listen(64)
    while True:
        conn, _ = s.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main()
PY
cat > /app/kexprobe/run.sh <<'SH'
#!/bin/bash
exec python3 /app/kexprobe/probe.py
SH
chmod +x /app/kexprobe/run.sh
