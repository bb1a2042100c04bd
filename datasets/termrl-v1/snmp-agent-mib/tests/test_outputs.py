"""An SNMP manager written here (BER encoder/decoder) queries the agent; the MIB and the requests are generated per run."""
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
RNG = random.Random(161)
DIR = tempfile.mkdtemp(prefix="snmp")
RO, RW = b"ro-%d" % RNG.randrange(10 ** 6), b"rw-%d" % RNG.randrange(10 ** 6)
TAGS = {"INTEGER": 0x02, "OCTET_STRING": 0x04, "OBJECT_IDENTIFIER": 0x06, "IpAddress": 0x40, "Counter32": 0x41,
        "Gauge32": 0x42, "TimeTicks": 0x43, "Counter64": 0x46}
NSO, NSI, EOM = 0x80, 0x81, 0x82


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


def make_mib():
    mib = {}
    subtrees = [(1, 3, 6, 1, 2, 1, 1), (1, 3, 6, 1, 2, 1, 2, 2, 1), (1, 3, 6, 1, 4, 1, 99999 + RNG.randrange(5000)),
                (1, 3, 6, 1, 4, 1, 200, 1), (1, 3, 6, 1, 6, 3)]
    while len(mib) < 60:
        base = RNG.choice(subtrees)
        oid = base + tuple(RNG.choice([0, 1, 2, 3, 10, 127, 128, 300, 16384, 2 ** 31 - 1]) for _ in range(RNG.randrange(1, 4)))
        typ = RNG.choice(list(TAGS))
        if typ == "INTEGER":
            v = RNG.choice([0, -1, 127, 128, -129, 2 ** 31 - 1, -2 ** 31, RNG.randrange(-10 ** 6, 10 ** 6)])
        elif typ == "OCTET_STRING":
            v = RNG.choice(["", "eth%d" % RNG.randrange(9), 'quote " and \\ backslash', "ünïcode", "x" * 300])
        elif typ == "OBJECT_IDENTIFIER":
            v = RNG.choice(subtrees) + (RNG.randrange(0, 70000),)
        elif typ == "IpAddress":
            v = "%d.%d.%d.%d" % tuple(RNG.randrange(256) for _ in range(4))
        elif typ == "Counter64":
            v = RNG.choice([0, 2 ** 64 - 1, 2 ** 63, RNG.randrange(2 ** 64)])
        else:
            v = RNG.choice([0, 2 ** 32 - 1, 2 ** 31, 255, RNG.randrange(2 ** 32)])
        mib[oid] = [typ, RNG.choice(["ro", "rw", "rw"]), v]
    return mib


MIB = make_mib()


def mib_text():
    lines = ["# generated"]
    for oid, (typ, access, v) in sorted(MIB.items(), key=lambda kv: RNG.random()):
        if typ == "OCTET_STRING":
            val = json.dumps(v)
        elif typ == "OBJECT_IDENTIFIER":
            val = ".".join(map(str, v))
        else:
            val = str(v)
        lines.append("%s %s %s %s" % (".".join(map(str, oid)), typ, access, val))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module", autouse=True)
def agent():
    with open(f"{DIR}/mib.txt", "w", encoding="utf-8") as f:
        f.write(mib_text())
    proc = subprocess.Popen(["bash", "/app/snmp/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, SNMP_PORT=str(PORT), SNMP_MIB=f"{DIR}/mib.txt",
                                     SNMP_RO_COMMUNITY=RO.decode(), SNMP_RW_COMMUNITY=RW.decode()),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.settimeout(1)
    deadline, ready = time.time() + 240, False  # hang guard only
    while not ready and time.time() < deadline and proc.poll() is None:
        try:
            probe.sendto(message(1, RO, 0xA0, 1, 0, 0, [((1, 3), None)]), ("127.0.0.1", PORT))
            probe.recvfrom(65535)
            ready = True
        except OSError:
            time.sleep(0.2)
    probe.close()
    if not ready:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the agent did not answer")
    yield
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


# ---- BER ----
def tlv(tag, val):
    n = len(val)
    if n < 128:
        return bytes([tag, n]) + val
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(b)]) + b + val


def read_tlv(data, pos):
    tag, n = data[pos], data[pos + 1]
    pos += 2
    if n & 0x80:
        k = n & 0x7F
        n = int.from_bytes(data[pos:pos + k], "big")
        pos += k
    return tag, data[pos:pos + n], pos + n


def children(data):
    out, pos = [], 0
    while pos < len(data):
        tag, val, pos = read_tlv(data, pos)
        out.append((tag, val))
    return out


def enc_int(tag, v, signed=True):
    return tlv(tag, v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big", signed=signed))


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
    out, x = [val[0] // 40, val[0] % 40], 0
    for b in val[1:]:
        x = (x << 7) | (b & 0x7F)
        if not b & 0x80:
            out.append(x)
            x = 0
    return tuple(out)


def enc_value(typ, v):
    tag = TAGS[typ]
    if typ == "INTEGER":
        return enc_int(tag, v)
    if typ in ("Counter32", "Gauge32", "TimeTicks", "Counter64"):
        return enc_int(tag, v, signed=False)
    if typ == "OBJECT_IDENTIFIER":
        return enc_oid(v)
    if typ == "IpAddress":
        return tlv(tag, socket.inet_aton(v))
    return tlv(tag, v.encode())


def dec_value(tag, val):
    if tag == 0x02:
        return ("INTEGER", int.from_bytes(val, "big", signed=True))
    for name, t in TAGS.items():
        if t == tag and name in ("Counter32", "Gauge32", "TimeTicks", "Counter64"):
            return (name, int.from_bytes(val, "big"))
    if tag == 0x06:
        return ("OBJECT_IDENTIFIER", dec_oid(val))
    if tag == 0x40:
        return ("IpAddress", socket.inet_ntoa(val))
    if tag == 0x04:
        return ("OCTET_STRING", val.decode("utf-8"))
    if tag == 0x05:
        return ("NULL", None)
    assert val == b"", f"exception value {tag:#x} must be empty"
    return ({NSO: "noSuchObject", NSI: "noSuchInstance", EOM: "endOfMibView"}[tag], None)


def message(version, community, ptype, rid, f1, f2, binds):
    vbs = b"".join(tlv(0x30, enc_oid(o) + (tlv(0x05, b"") if v is None else enc_value(*v))) for o, v in binds)
    pdu = enc_int(0x02, rid) + enc_int(0x02, f1) + enc_int(0x02, f2) + tlv(0x30, vbs)
    return tlv(0x30, enc_int(0x02, version) + tlv(0x04, community) + tlv(ptype, pdu))


class Manager:
    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.settimeout(TIMEOUT)
        self.rid = RNG.randrange(-2 ** 31, 2 ** 31 - 1000)

    def send(self, version, ptype, binds, community=None, f1=0, f2=0):
        self.rid += 1
        self.sock.sendto(message(version, community or (RW if ptype == 0xA3 else RO), ptype, self.rid, f1, f2, binds),
                         ("127.0.0.1", PORT))
        return self.rid

    def recv(self):
        data, _ = self.sock.recvfrom(65535)
        tag, body, _ = read_tlv(data, 0)
        version, community, (ptype, pdu) = children(body)
        fields = children(pdu)
        binds = [(dec_oid(children(vb)[0][1]), dec_value(*children(vb)[1])) for _, vb in children(fields[3][1])]
        return {"version": int.from_bytes(version[1], "big"), "community": community[1], "type": ptype,
                "rid": int.from_bytes(fields[0][1], "big", signed=True),
                "status": int.from_bytes(fields[1][1], "big", signed=True),
                "index": int.from_bytes(fields[2][1], "big", signed=True), "binds": binds}

    def ask(self, version, ptype, binds, **kw):
        rid = self.send(version, ptype, binds, **kw)
        r = self.recv()
        assert r["rid"] == rid and r["type"] == 0xA2 and r["version"] == version
        assert r["community"] == (kw.get("community") or (RW if ptype == 0xA3 else RO))
        return r

    def silent(self, raw):
        self.sock.sendto(raw, ("127.0.0.1", PORT))
        rid = self.send(1, 0xA0, [((1, 3), None)])
        assert self.recv()["rid"] == rid, "expected no response to the previous datagram"


def value_of(oid):
    typ, _, v = MIB[oid]
    return (typ, v)


def visible(oid, version):
    return not (version == 0 and MIB[oid][0] == "Counter64")


def next_of(oid, version):
    for o in sorted(MIB):
        if o > oid and visible(o, version):
            return o
    return None


def expect_get(oids, version):
    out = []
    for i, o in enumerate(oids):
        if o in MIB and visible(o, version):
            out.append((o, value_of(o)))
        elif version == 0:
            return 2, i + 1, [(o, ("NULL", None)) for o in oids]
        elif any(x[:-1] == o[:-1] for x in MIB if visible(x, version)):
            out.append((o, ("noSuchInstance", None)))
        else:
            out.append((o, ("noSuchObject", None)))
    return 0, 0, out


def result(r):
    return r["status"], r["index"], r["binds"]


def some_oids(n):
    pool = list(MIB) + [o[:-1] + (o[-1] + 1,) for o in MIB] + [o + (0,) for o in MIB] + [(1, 3, 6, 1, 7, 7, 7)]
    return [RNG.choice(pool) for _ in range(n)]


def test_get_v1_and_v2c():
    m = Manager()
    for _ in range(60):
        oids = some_oids(RNG.randrange(1, 6))
        for version in (0, 1):
            assert result(m.ask(version, 0xA0, [(o, None) for o in oids])) == expect_get(oids, version), f"v{version + 1 if version else 1} Get {oids}"


def test_walks_with_getnext():
    m = Manager()
    for version in (1, 0):
        walked, cur = [], (1, 3)
        while True:
            r = m.ask(version, 0xA1, [(cur, None)])
            if version == 0 and r["status"]:
                assert (r["status"], r["index"]) == (2, 1)
                break
            assert r["status"] == 0
            (o, v), = r["binds"]
            if v[0] == "endOfMibView":
                assert o == cur
                break
            assert v == value_of(o)
            walked.append(o)
            cur = o
        assert walked == [o for o in sorted(MIB) if visible(o, version)], f"walk in v{version + 1 if version else 1}"
    oids = some_oids(4)
    want = []
    for o in oids:
        n = next_of(o, 1)
        want.append((o, ("endOfMibView", None)) if n is None else (n, value_of(n)))
    assert result(m.ask(1, 0xA1, [(o, None) for o in oids])) == (0, 0, want)


def test_getbulk():
    m = Manager()
    for non_rep, max_rep, n in [(0, 5, 1), (1, 3, 3), (2, 10, 2), (3, 4, 2), (-1, 2, 2), (1, -4, 3), (0, 70, 2)]:
        oids = some_oids(n)
        if RNG.random() < 0.5:
            oids[-1] = sorted(MIB)[-3]
        want = []
        k = min(max(non_rep, 0), n)
        for o in oids[:k]:
            nx = next_of(o, 1)
            want.append((o, ("endOfMibView", None)) if nx is None else (nx, value_of(nx)))
        cursors = oids[k:]
        for _ in range(max(max_rep, 0) if cursors else 0):
            for j, c in enumerate(cursors):
                nx = next_of(c, 1)
                if nx is None:
                    want.append((c, ("endOfMibView", None)))
                else:
                    want.append((nx, value_of(nx)))
                    cursors[j] = nx
        r = m.ask(1, 0xA5, [(o, None) for o in oids], f1=non_rep, f2=max_rep)
        assert result(r) == (0, 0, want), f"GetBulk non-repeaters={non_rep} max-repetitions={max_rep}"


def test_set_is_atomic_and_checked():
    m = Manager()
    rw = [o for o in sorted(MIB) if MIB[o][1] == "rw" and MIB[o][0] != "Counter64"]
    ro = [o for o in sorted(MIB) if MIB[o][1] == "ro"]
    for _ in range(30):
        picks = RNG.sample(rw, 3)
        binds = []
        for o in picks:
            typ = MIB[o][0]
            if typ == "OCTET_STRING":
                v = "set-%d" % RNG.randrange(1000)
            elif typ == "INTEGER":
                v = RNG.randrange(-2 ** 31, 2 ** 31)
            elif typ == "OBJECT_IDENTIFIER":
                v = (1, 3, 6, 1, RNG.randrange(300))
            elif typ == "IpAddress":
                v = "192.0.2.%d" % RNG.randrange(256)
            else:
                v = RNG.randrange(2 ** 32)
            binds.append((o, (typ, v)))
        case = RNG.choice(["ok", "ok", "ro", "missing", "type", "range", "community"])
        version = RNG.choice([0, 1])
        bad = RNG.randrange(3)
        status = {"ok": 0, "ro": 17, "missing": 17, "type": 7, "range": 7, "community": 6}[case]
        if version == 0:
            status = {0: 0, 17: 2, 7: 3, 6: 2}[status]
        if case == "ro":
            binds[bad] = (RNG.choice(ro), value_of(RNG.choice(ro)))
            binds[bad] = (binds[bad][0], value_of(binds[bad][0]))
        elif case == "missing":
            binds[bad] = ((1, 3, 6, 1, 7, 1, RNG.randrange(99)), ("INTEGER", 1))
        elif case == "type":
            o = binds[bad][0]
            binds[bad] = (o, ("OCTET_STRING", "x") if MIB[o][0] != "OCTET_STRING" else ("INTEGER", 3))
        elif case == "range":
            ints = [o for o in picks if MIB[o][0] in ("INTEGER", "Counter32", "Gauge32", "TimeTicks")]
            if not ints:
                continue
            bad = picks.index(ints[0])
            binds[bad] = (ints[0], (MIB[ints[0]][0], 2 ** 32 if MIB[ints[0]][0] != "INTEGER" else 2 ** 31))
        kw = {"community": RO} if case == "community" else {}
        r = m.ask(version, 0xA3, binds, **kw)
        want_binds = [(o, v if v[0] != "IpAddress" else v) for o, v in binds]
        if status == 0:
            assert result(r) == (0, 0, want_binds)
            for o, v in binds:
                MIB[o][2] = v[1]
        else:
            assert result(r) == (status, 1 if case == "community" else bad + 1, want_binds), f"Set {case} v{version}"
        check = [o for o, _ in binds if o in MIB]
        assert result(m.ask(1, 0xA0, [(o, None) for o in check])) == expect_get(check, 1), "a refused Set changes nothing"


def test_bad_datagrams_get_no_response():
    m = Manager()
    good = [((1, 3), None)]
    m.silent(message(1, b"guess", 0xA0, 5, 0, 0, good))  # unknown community
    m.silent(message(3, RO, 0xA0, 5, 0, 0, good))  # SNMPv3 is not supported
    m.silent(message(0, RO, 0xA5, 5, 0, 3, good))  # no GetBulk in SNMPv1
    m.silent(message(1, RO, 0xA2, 5, 0, 0, good))  # a response
    m.silent(b"\x30\x84\xff\xff\xff\xff\x02\x01")  # truncated BER
    m.silent(message(1, RO, 0xA0, 5, 0, 0, good)[:-3])
