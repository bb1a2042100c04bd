#!/bin/bash
set -euo pipefail
mkdir -p /app/snmp
cat > /app/snmp/agent.py <<'PY'
"""snmplite: SNMPv1/v2c agent over UDP serving a MIB file (Get, GetNext, GetBulk, Set)."""
import json
import os
import socket

PORT = int(os.environ.get("SNMP_PORT", "1161"))
MIB_FILE = os.environ.get("SNMP_MIB", "/etc/snmplite/mib.txt")
RO = os.environ.get("SNMP_RO_COMMUNITY", "public").encode()
RW = os.environ.get("SNMP_RW_COMMUNITY", "private").encode()
TAGS = {"INTEGER": 0x02, "OCTET_STRING": 0x04, "OBJECT_IDENTIFIER": 0x06, "IpAddress": 0x40, "Counter32": 0x41,
        "Gauge32": 0x42, "TimeTicks": 0x43, "Counter64": 0x46}
NO_SUCH_OBJECT, NO_SUCH_INSTANCE, END_OF_MIB = 0x80, 0x81, 0x82


class Bad(Exception):
    pass


def parse_oid_text(t):
    return tuple(int(x) for x in t.strip().strip(".").split("."))


def load():
    mib = {}
    for line in open(MIB_FILE, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        oid, typ, access, value = line.split(None, 3)
        if typ == "OCTET_STRING":
            v = json.loads(value).encode()
        elif typ == "OBJECT_IDENTIFIER":
            v = parse_oid_text(value)
        elif typ == "IpAddress":
            v = socket.inet_aton(value.strip())
        else:
            v = int(value)
        mib[parse_oid_text(oid)] = [TAGS[typ], access, v]
    return mib


MIB = load()


def order():
    return sorted(MIB)


# ---- BER ----
def tlv(tag, val):
    n = len(val)
    if n < 128:
        return bytes([tag, n]) + val
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(b)]) + b + val


def read_tlv(data, pos):
    if pos + 2 > len(data):
        raise Bad()
    tag, n = data[pos], data[pos + 1]
    pos += 2
    if n & 0x80:
        k = n & 0x7F
        if not 0 < k <= 4 or pos + k > len(data):
            raise Bad()
        n = int.from_bytes(data[pos:pos + k], "big")
        pos += k
    if pos + n > len(data):
        raise Bad()
    return tag, data[pos:pos + n], pos + n


def children(data):
    out, pos = [], 0
    while pos < len(data):
        tag, val, pos = read_tlv(data, pos)
        out.append((tag, val))
    return out


def enc_int(tag, v, signed=True):
    if signed:
        b = v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big", signed=True)
    else:
        b = v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big")
    return tlv(tag, b)


def dec_int(val):
    if not val:
        raise Bad()
    return int.from_bytes(val, "big", signed=True)


def enc_oid(oid):
    out = bytearray([oid[0] * 40 + oid[1]])
    for x in oid[2:]:
        chunk = [x & 0x7F]
        x >>= 7
        while x:
            chunk.append(0x80 | (x & 0x7F))
            x >>= 7
        out += bytes(reversed(chunk))
    return tlv(0x06, bytes(out))


def dec_oid(val):
    if not val:
        raise Bad()
    out = [val[0] // 40, val[0] % 40] if val[0] < 80 else [2, val[0] - 80]
    x = 0
    for b in val[1:]:
        x = (x << 7) | (b & 0x7F)
        if not b & 0x80:
            out.append(x)
            x = 0
    return tuple(out)


def enc_value(tag, v):
    if tag == 0x02:
        return enc_int(0x02, v)
    if tag in (0x41, 0x42, 0x43, 0x46):
        return enc_int(tag, v, signed=False)
    if tag == 0x06:
        return enc_oid(v)
    return tlv(tag, v)


def dec_value(tag, val):
    if tag == 0x02:
        return dec_int(val)
    if tag in (0x41, 0x42, 0x43, 0x46):
        return int.from_bytes(val, "big")
    if tag == 0x06:
        return dec_oid(val)
    if tag == 0x40 and len(val) != 4:
        raise Bad()
    return bytes(val)


def fits(tag, v):
    if tag == 0x02:
        return -2 ** 31 <= v < 2 ** 31
    if tag in (0x41, 0x42, 0x43):
        return 0 <= v < 2 ** 32
    if tag == 0x46:
        return 0 <= v < 2 ** 64
    return True


# ---- operations ----
def visible(oid, version):
    return not (version == 0 and MIB[oid][0] == 0x46)


def next_oid(oid, version):
    for o in order():
        if o > oid and visible(o, version):
            return o
    return None


def get_one(oid, version):
    if oid in MIB and visible(oid, version):
        return enc_value(MIB[oid][0], MIB[oid][2])
    if version == 0:
        return None
    parent = oid[:-1]
    if any(o[:-1] == parent for o in MIB if visible(o, version)):
        return tlv(NO_SUCH_INSTANCE, b"")
    return tlv(NO_SUCH_OBJECT, b"")


def handle(data):
    tag, body, end = read_tlv(data, 0)
    if tag != 0x30 or end != len(data):
        raise Bad()
    parts = children(body)
    if len(parts) != 3 or parts[0][0] != 0x02 or parts[1][0] != 0x04:
        raise Bad()
    version, community, (ptype, pdu) = dec_int(parts[0][1]), parts[1][1], parts[2]
    if version not in (0, 1) or community not in (RO, RW):
        raise Bad()
    if ptype not in (0xA0, 0xA1, 0xA3) and not (ptype == 0xA5 and version == 1):
        raise Bad()
    fields = children(pdu)
    if len(fields) != 4 or fields[3][0] != 0x30:
        raise Bad()
    rid, f1, f2 = fields[0][1], dec_int(fields[1][1]), dec_int(fields[2][1])
    binds = []
    for t, vb in children(fields[3][1]):
        pair = children(vb)
        if t != 0x30 or len(pair) != 2 or pair[0][0] != 0x06:
            raise Bad()
        binds.append((dec_oid(pair[0][1]), pair[1]))

    def reply(status, index, varbinds):
        vbs = b"".join(tlv(0x30, enc_oid(o) + v) for o, v in varbinds)
        p = tlv(0x02, rid) + enc_int(0x02, status) + enc_int(0x02, index) + tlv(0x30, vbs)
        return tlv(0x30, enc_int(0x02, version) + tlv(0x04, community) + tlv(0xA2, p))

    echo = [(o, tlv(t, v)) for o, (t, v) in binds]
    if ptype == 0xA0:
        out = []
        for i, (o, _) in enumerate(binds):
            v = get_one(o, version)
            if v is None:
                return reply(2, i + 1, echo)
            out.append((o, v))
        return reply(0, 0, out)
    if ptype == 0xA1:
        out = []
        for i, (o, _) in enumerate(binds):
            n = next_oid(o, version)
            if n is None:
                if version == 0:
                    return reply(2, i + 1, echo)
                out.append((o, tlv(END_OF_MIB, b"")))
            else:
                out.append((n, enc_value(MIB[n][0], MIB[n][2])))
        return reply(0, 0, out)
    if ptype == 0xA5:
        non_rep = min(max(f1, 0), len(binds))
        max_rep = max(f2, 0)
        out = []
        for o, _ in binds[:non_rep]:
            n = next_oid(o, version)
            out.append((o, tlv(END_OF_MIB, b"")) if n is None else (n, enc_value(MIB[n][0], MIB[n][2])))
        cursors = [o for o, _ in binds[non_rep:]]
        for _ in range(max_rep if cursors else 0):
            for j, c in enumerate(cursors):
                n = next_oid(c, version)
                if n is None:
                    out.append((c, tlv(END_OF_MIB, b"")))
                else:
                    out.append((n, enc_value(MIB[n][0], MIB[n][2])))
                    cursors[j] = n
        return reply(0, 0, out)
    # SetRequest
    if community != RW:
        return reply(6 if version == 1 else 2, 1 if binds else 0, echo)
    new = []
    for i, (o, (t, v)) in enumerate(binds):
        if o not in MIB or not visible(o, version):
            return reply(17 if version == 1 else 2, i + 1, echo)
        if MIB[o][1] != "rw":
            return reply(17 if version == 1 else 2, i + 1, echo)
        try:
            value = dec_value(t, v)
        except Bad:
            value = None
        if t != MIB[o][0] or value is None or not fits(t, value):
            return reply(7 if version == 1 else 3, i + 1, echo)
        new.append((o, value))
    for o, value in new:
        MIB[o][2] = value
    return reply(0, 0, echo)


def main():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", PORT))
    while True:
        data, peer = s.recvfrom(65535)
        try:
            out = handle(data)
        except (Bad, IndexError, ValueError):
            continue
        s.sendto(out, peer)


main()
PY
cat > /app/snmp/run.sh <<'SH'
#!/bin/bash
exec python3 /app/snmp/agent.py
SH
chmod +x /app/snmp/run.sh
