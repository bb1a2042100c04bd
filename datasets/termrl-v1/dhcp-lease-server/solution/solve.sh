#!/bin/bash
set -euo pipefail
mkdir -p /app/dhcp
cat > /app/dhcp/server.py <<'PY'
"""minidhcp: DHCPv4 lease server (DISCOVER/OFFER/REQUEST/ACK/NAK, RELEASE, DECLINE, INFORM) on a UDP port."""
import ipaddress
import json
import os
import socket
import struct

CONF = os.environ.get("DHCP_CONF", "/etc/minidhcp/dhcp.conf")
LEASES = os.environ.get("DHCP_LEASES", "/var/lib/minidhcp/leases.json")
PORT = int(os.environ.get("DHCP_PORT", "6767"))
COOKIE = b"\x63\x82\x53\x63"
DISCOVER, OFFER, REQUEST, DECLINE, ACK, NAK, RELEASE, INFORM = 1, 2, 3, 4, 5, 6, 7, 8


def ip(s):
    return int(ipaddress.IPv4Address(s.strip()))


def load_conf():
    c = {"reserve": {}, "dns": []}
    for line in open(CONF, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if key.startswith("reserve "):
            mac = bytes.fromhex(key.split(None, 1)[1].replace(":", ""))
            c["reserve"][mac] = ip(value)
        elif key == "pool":
            lo, hi = value.split("-")
            c["pool"] = list(range(ip(lo), ip(hi) + 1))
        elif key in ("server_id", "router", "subnet_mask"):
            c[key] = ip(value)
        elif key == "dns":
            c["dns"] = [ip(v) for v in value.split(",")]
        elif key == "lease_time":
            c["lease_time"] = int(value)
    return c


C = load_conf()
RESERVED = set(C["reserve"].values())
leases, declined, offers = {}, set(), {}  # client key (hex) -> address; declined addresses; client key -> address


def load_state():
    global leases, declined
    try:
        with open(LEASES, encoding="utf-8") as f:
            st = json.load(f)
        leases, declined = dict(st["leases"]), set(st["declined"])
    except (OSError, ValueError, KeyError):
        pass


def save_state():
    os.makedirs(os.path.dirname(LEASES) or ".", exist_ok=True)
    tmp = LEASES + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"leases": leases, "declined": sorted(declined)}, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, LEASES)


def parse(pkt):
    if len(pkt) < 240 or pkt[0] != 1 or pkt[236:240] != COOKIE:
        return None
    opts, pos = {}, 240
    while pos < len(pkt):
        code = pkt[pos]
        if code == 255:
            break
        if code == 0:
            pos += 1
            continue
        if pos + 1 >= len(pkt):
            return None
        n = pkt[pos + 1]
        opts.setdefault(code, pkt[pos + 2:pos + 2 + n])
        pos += 2 + n
    if 53 not in opts or len(opts[53]) != 1:
        return None
    hlen = min(pkt[2], 16)
    return {"raw": pkt, "type": opts[53][0], "opts": opts, "xid": pkt[4:8], "ciaddr": struct.unpack(">I", pkt[12:16])[0],
            "chaddr": pkt[28:28 + hlen], "mac": pkt[28:34] if pkt[1] == 1 and pkt[2] == 6 else None}


def client_key(p):
    if 61 in p["opts"]:
        return "id:" + p["opts"][61].hex()
    return "hw:" + p["chaddr"].hex()


def holder(addr):
    for k, a in leases.items():
        if a == addr:
            return k
    for k, a in offers.items():
        if a == addr:
            return k
    return None


def available(addr, key):
    return addr in C["pool"] and addr not in RESERVED and addr not in declined and holder(addr) in (None, key)


def choose(p, key):
    if p["mac"] in C["reserve"]:
        return C["reserve"][p["mac"]]
    for a in (leases.get(key), offers.get(key)):
        if a is not None and a not in declined:
            return a
    want = p["opts"].get(50)
    if want is not None and len(want) == 4 and available(struct.unpack(">I", want)[0], key):
        return struct.unpack(">I", want)[0]
    for a in C["pool"]:
        if available(a, key):
            return a
    return None


def allowed(addr, p, key):
    """May this client hold addr?"""
    if p["mac"] in C["reserve"]:
        return addr == C["reserve"][p["mac"]]
    return available(addr, key)


def reply(p, mtype, yiaddr=0, lease=True):
    raw = p["raw"]
    head = bytes([2]) + raw[1:3] + b"\x00" + raw[4:8] + b"\x00\x00" + raw[10:12] + raw[12:16] + struct.pack(">I", yiaddr)
    head += b"\x00" * 4 + raw[24:28] + raw[28:44] + b"\x00" * 192 + COOKIE
    opts = bytes([53, 1, mtype, 54, 4]) + struct.pack(">I", C["server_id"])
    if mtype != NAK:
        if lease:
            opts += bytes([51, 4]) + struct.pack(">I", C["lease_time"])
        for code in dict.fromkeys(p["opts"].get(55, b"")):
            if code == 1:
                opts += bytes([1, 4]) + struct.pack(">I", C["subnet_mask"])
            elif code == 3 and C.get("router"):
                opts += bytes([3, 4]) + struct.pack(">I", C["router"])
            elif code == 6 and C["dns"]:
                opts += bytes([6, 4 * len(C["dns"])]) + b"".join(struct.pack(">I", d) for d in C["dns"])
    return head + opts + b"\xff"


def handle(p):
    key, t, o = client_key(p), p["type"], p["opts"]
    if t == DISCOVER:
        addr = choose(p, key)
        if addr is None:
            return None
        offers[key] = addr
        return reply(p, OFFER, addr)
    if t == REQUEST:
        want = struct.unpack(">I", o[50])[0] if 50 in o and len(o[50]) == 4 else None
        if 54 in o:
            offered = offers.pop(key, None)
            if o[54] != struct.pack(">I", C["server_id"]):
                return None
            if want is not None and want in (offered, leases.get(key)) and allowed(want, p, key):
                leases[key] = want
                save_state()
                return reply(p, ACK, want)
            return reply(p, NAK)
        if want is not None:
            if leases.get(key) == want:
                return reply(p, ACK, want)
            if key not in leases and holder(want) is None:
                return None
            return reply(p, NAK)
        if p["ciaddr"]:
            if leases.get(key) == p["ciaddr"]:
                return reply(p, ACK, p["ciaddr"])
            return reply(p, NAK)
        return None
    if t == RELEASE:
        if leases.get(key) == p["ciaddr"]:
            del leases[key]
            save_state()
        return None
    if t == DECLINE:
        if 50 in o and len(o[50]) == 4:
            addr = struct.unpack(">I", o[50])[0]
            if leases.get(key) == addr:
                del leases[key]
            if offers.get(key) == addr:
                del offers[key]
            declined.add(addr)
            save_state()
        return None
    if t == INFORM:
        return reply(p, ACK, 0, lease=False)
    return None


def main():
    load_state()
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", PORT))
    while True:
        pkt, addr = s.recvfrom(4096)
        p = parse(pkt)
        if p is None:
            continue
        out = handle(p)
        if out is not None:
            s.sendto(out, addr)


main()
PY
cat > /app/dhcp/run.sh <<'SH'
#!/bin/bash
exec python3 /app/dhcp/server.py
SH
chmod +x /app/dhcp/run.sh
