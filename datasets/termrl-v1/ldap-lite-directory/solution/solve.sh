#!/bin/bash
set -euo pipefail
mkdir -p /app/ldap
cat > /app/ldap/server.py <<'PY'
"""ldaplite: LDAPv3 Bind/Search/Unbind over BER, serving an LDIF file."""
import base64
import os
import socket
import threading

PORT = int(os.environ.get("LDAP_PORT", "3389"))
LDIF = os.environ.get("LDAP_LDIF", "/etc/ldaplite/directory.ldif")
PROTECTED = {"mail", "telephonenumber"}
HIDDEN = {"userpassword"}


class Bad(Exception):
    pass


def norm_dn(dn):
    parts = []
    for rdn in dn.split(","):
        if not rdn.strip():
            continue
        t, sep, v = rdn.partition("=")
        parts.append(t.strip().lower() + "=" + v.strip().lower())
    return ",".join(parts)


def load():
    entries, cur, lines = [], None, []
    raw = open(LDIF, "rb").read().decode("utf-8").split("\n")
    for line in raw:
        line = line.rstrip("\r")
        if line.startswith(" ") and lines:
            lines[-1] += line[1:]
        else:
            lines.append(line)
    for line in lines + [""]:
        if not line.strip():
            if cur is not None:
                entries.append(cur)
            cur = None
            continue
        if line.startswith("#"):
            continue
        name, _, value = line.partition(":")
        if value.startswith(":"):
            value = base64.b64decode(value[1:].strip()).decode("utf-8")
        else:
            value = value.strip()
        if name.lower() == "dn":
            cur = {"dn": value, "ndn": norm_dn(value), "attrs": []}
        elif cur is None:
            continue  # "version: 1" before the first entry
        else:
            for a in cur["attrs"]:
                if a[0].lower() == name.lower():
                    a[1].append(value)
                    break
            else:
                cur["attrs"].append([name, [value]])
    return entries


ENTRIES = load()


# --- BER ---
def read_tlv(data, pos):
    if pos + 2 > len(data):
        raise Bad()
    tag = data[pos]
    n = data[pos + 1]
    pos += 2
    if n & 0x80:
        k = n & 0x7F
        if k == 0 or k > 4 or pos + k > len(data):
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


def integer(val):
    return int.from_bytes(val, "big", signed=True) if val else 0


def tlv(tag, val):
    n = len(val)
    if n < 128:
        return bytes([tag, n]) + val
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(b)]) + b + val


def ber_int(tag, v):
    return tlv(tag, v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big", signed=True))


def result(op, code):
    return tlv(op, ber_int(0x0A, code) + tlv(0x04, b"") + tlv(0x04, b""))


# --- filters ---
def values(entry, attr, bound):
    a = attr.lower()
    if a in HIDDEN or (a in PROTECTED and not bound):
        return None
    for name, vals in entry["attrs"]:
        if name.lower() == a:
            return vals
    return None


def compare(x, y):
    try:
        a, b = int(x), int(y)
    except ValueError:
        a, b = x.lower(), y.lower()
    return (a > b) - (a < b)


def matches(f, entry, bound):
    tag, val = f
    if tag == 0xA0:
        return all(matches(c, entry, bound) for c in children(val))
    if tag == 0xA1:
        return any(matches(c, entry, bound) for c in children(val))
    if tag == 0xA2:
        inner = children(val)
        if len(inner) != 1:
            raise Bad()
        return not matches(inner[0], entry, bound)
    if tag == 0x87:
        return values(entry, val.decode(), bound) is not None
    if tag in (0xA3, 0xA5, 0xA6, 0xA8):
        parts = children(val)
        if len(parts) != 2:
            raise Bad()
        vals = values(entry, parts[0][1].decode(), bound) or []
        want = parts[1][1].decode()
        if tag in (0xA3, 0xA8):
            return any(v.lower() == want.lower() for v in vals)
        if tag == 0xA5:
            return any(compare(v, want) >= 0 for v in vals)
        return any(compare(v, want) <= 0 for v in vals)
    if tag == 0xA4:
        parts = children(val)
        if len(parts) != 2:
            raise Bad()
        vals = values(entry, parts[0][1].decode(), bound) or []
        subs = [(t, v.decode().lower()) for t, v in children(parts[1][1])]
        return any(sub_match(v.lower(), subs) for v in vals)
    raise Bad()


def sub_match(v, subs):
    pos = 0
    for i, (t, s) in enumerate(subs):
        if t == 0x80:
            if not v.startswith(s):
                return False
            pos = len(s)
        elif t == 0x81:
            j = v.find(s, pos)
            if j < 0:
                return False
            pos = j + len(s)
        elif t == 0x82:
            return len(v) - len(s) >= pos and v.endswith(s)
        else:
            raise Bad()
    return True


def in_scope(entry, base, scope):
    ndn = entry["ndn"]
    if scope == 0:
        return ndn == base
    if not base:
        parent_ok = True
    else:
        parent_ok = ndn.endswith("," + base)
    if scope == 1:
        if not parent_ok or ndn == base:
            return False
        rest = ndn[:len(ndn) - len(base) - 1] if base else ndn
        return "," not in rest
    return ndn == base or parent_ok


def search(mid, val, bound):
    parts = children(val)
    if len(parts) != 8:
        raise Bad()
    base = norm_dn(parts[0][1].decode())
    scope, size_limit, types_only = integer(parts[1][1]), integer(parts[3][1]), parts[5][1] != b"\x00"
    filt = parts[6]
    wanted = [v.decode().lower() for _, v in children(parts[7][1])]
    out = []
    if base and not any(e["ndn"] == base for e in ENTRIES):
        return [message(mid, result(0x65, 32))]
    sent = 0
    for e in ENTRIES:
        if not in_scope(e, base, scope) or not matches(filt, e, bound):
            continue
        if size_limit and sent >= size_limit:
            out.append(message(mid, result(0x65, 4)))
            return out
        attrs = b""
        for name, vals in e["attrs"]:
            low = name.lower()
            if low in HIDDEN or (low in PROTECTED and not bound):
                continue
            if "1.1" in wanted and len(wanted) == 1:
                continue
            if wanted and "*" not in wanted and low not in wanted:
                continue
            vs = b"" if types_only else b"".join(tlv(0x04, v.encode()) for v in vals)
            attrs += tlv(0x30, tlv(0x04, name.encode()) + tlv(0x31, vs))
        out.append(message(mid, tlv(0x64, tlv(0x04, e["dn"].encode()) + tlv(0x30, attrs))))
        sent += 1
    out.append(message(mid, result(0x65, 0)))
    return out


def message(mid, op):
    return tlv(0x30, ber_int(0x02, mid) + op)


def bind(val):
    parts = children(val)
    if len(parts) < 3 or integer(parts[0][1]) != 3:
        return 2, None
    name, auth = parts[1][1].decode(), parts[2]
    if auth[0] != 0x80:
        return 2, None
    if not name and not auth[1]:
        return 0, None
    for e in ENTRIES:
        if e["ndn"] == norm_dn(name) and name:
            for n, vals in e["attrs"]:
                if n.lower() == "userpassword" and auth[1].decode() in vals and auth[1]:
                    return 0, e["ndn"]
    return 49, None


def serve(conn):
    buf, bound = b"", None
    try:
        while True:
            while True:
                try:
                    tag, val, end = read_tlv(buf, 0)
                    break
                except Bad:
                    if len(buf) >= 2 and (buf[0] != 0x30 or (buf[1] & 0x80 and not 0 < (buf[1] & 0x7F) <= 4)):
                        return
                    d = conn.recv(65536)
                    if not d:
                        return
                    buf += d
            buf = buf[end:]
            parts = children(val)
            if tag != 0x30 or len(parts) < 2 or parts[0][0] != 0x02:
                return
            mid, (op, body) = integer(parts[0][1]), parts[1]
            if op == 0x60:
                code, who = bind(body)
                bound = who
                conn.sendall(message(mid, result(0x61, code)))
            elif op == 0x63:
                conn.sendall(b"".join(search(mid, body, bound)))
            elif op == 0x42:
                return
            else:
                return
    except (Bad, OSError, UnicodeDecodeError):
        pass
    finally:
        conn.close()


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
cat > /app/ldap/run.sh <<'SH'
#!/bin/bash
exec python3 /app/ldap/server.py
SH
chmod +x /app/ldap/run.sh
