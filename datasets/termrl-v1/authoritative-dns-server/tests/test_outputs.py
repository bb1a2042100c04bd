import ipaddress
import os
import random
import signal
import socket
import struct
import subprocess
import time

import pytest

A, NS, CNAME, SOA, MX, TXT, AAAA = 1, 2, 5, 6, 15, 16, 28


def free_port():
    for _ in range(50):
        p = random.randint(20000, 40000)
        try:
            s1 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s1.bind(("127.0.0.1", p))
            s2 = socket.socket(); s2.bind(("127.0.0.1", p))
            s1.close(); s2.close()
            return p
        except OSError:
            continue
    raise RuntimeError("no port")


def qname_bytes(name):
    out = b""
    for l in name.rstrip(".").split("."):
        out += bytes([len(l)]) + l.encode()
    return out + b"\x00"


def build(name, qtype, qid=None, opcode=0, rd=1, qdcount=1):
    qid = random.randint(0, 65535) if qid is None else qid
    flags = (opcode << 11) | (0x0100 if rd else 0)
    return struct.pack("!6H", qid, flags, qdcount, 0, 0, 0) + qname_bytes(name) + struct.pack("!HH", qtype, 1)


def read_name(msg, off):
    labels, jumped, end = [], False, None
    for _ in range(100):
        ln = msg[off]
        if ln & 0xC0 == 0xC0:
            ptr = ((ln & 0x3F) << 8) | msg[off + 1]
            if not jumped:
                end = off + 2
            jumped, off = True, ptr
            continue
        if ln == 0:
            return ".".join(labels).lower() + ".", (end if jumped else off + 1)
        labels.append(msg[off + 1:off + 1 + ln].decode())
        off += 1 + ln
    raise ValueError("loop")


def parse(msg):
    qid, flags, qd, an, ns, ar = struct.unpack("!6H", msg[:12])
    off = 12
    qs = []
    for _ in range(qd):
        start = off
        n, off = read_name(msg, off)
        t, c = struct.unpack("!HH", msg[off:off + 4])
        off += 4
        qs.append((msg[start:off], t))
    def rrs(count):
        nonlocal off
        out = []
        for _ in range(count):
            n, off = read_name(msg, off)
            t, c, ttl, ln = struct.unpack("!HHIH", msg[off:off + 10])
            off += 10
            rd = msg[off:off + ln]
            if t == A:
                v = str(ipaddress.IPv4Address(rd))
            elif t == AAAA:
                v = str(ipaddress.IPv6Address(rd))
            elif t in (NS, CNAME):
                v = read_name(msg, off)[0]
            elif t == MX:
                v = (struct.unpack("!H", rd[:2])[0], read_name(msg, off + 2)[0])
            elif t == TXT:
                v, i = [], 0
                while i < len(rd):
                    v.append(rd[i + 1:i + 1 + rd[i]].decode()); i += 1 + rd[i]
                v = tuple(v)
            elif t == SOA:
                m, o2 = read_name(msg, off)
                r, o3 = read_name(msg, o2)
                v = (m, r) + struct.unpack("!5I", msg[o3:o3 + 20])
            else:
                v = rd
            off += ln
            out.append((n, t, ttl, v))
        return out
    return {"id": qid, "qr": flags >> 15, "opcode": (flags >> 11) & 15, "aa": (flags >> 10) & 1,
            "tc": (flags >> 9) & 1, "rd": (flags >> 8) & 1, "ra": (flags >> 7) & 1, "rcode": flags & 15,
            "q": qs, "an": rrs(an), "ns": rrs(ns)}


@pytest.fixture(scope="module")
def port():
    p = free_port()
    proc = subprocess.Popen(["bash", "/app/dns/run.sh"], env=dict(os.environ, DNS_PORT=str(p)), cwd="/",
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # A hang guard for the start-up, not a speed bar: a loaded machine may be slow.
    deadline = time.time() + 60
    ok = False
    while time.time() < deadline and not ok:
        try:
            socket.create_connection(("127.0.0.1", p), timeout=0.5).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield p if ok else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def udp(port, pkt):
    assert port, "server did not start (TCP port never opened)"
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(3)
    s.sendto(pkt, ("127.0.0.1", port))
    data, _ = s.recvfrom(65535)
    s.close()
    return data


def tcp(port, pkts):
    assert port
    out = []
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        for p in pkts:
            s.sendall(struct.pack("!H", len(p)) + p)
            n = struct.unpack("!H", s.recv(2, socket.MSG_WAITALL))[0]
            out.append(s.recv(n, socket.MSG_WAITALL))
    return out


def q(port, name, t, **kw):
    pkt = build(name, t, **kw)
    r = parse(udp(port, pkt))
    return pkt, r


def test_a_records_and_header(port):
    pkt, r = q(port, "WwW.Corp.TEST", A, qid=4242)
    assert r["id"] == 4242 and r["qr"] == 1 and r["aa"] == 1 and r["ra"] == 0 and r["rd"] == 1 and r["rcode"] == 0
    assert r["q"] == [(pkt[12:], A)], "question must be echoed exactly"
    assert [(n, t, ttl, v) for n, t, ttl, v in r["an"]] == [
        ("www.corp.test.", A, 300, "192.0.2.10"), ("www.corp.test.", A, 300, "192.0.2.11")]
    _, r0 = q(port, "www.corp.test", A, rd=0)
    assert r0["rd"] == 0


def test_cname_chain(port):
    _, r = q(port, "portal.corp.test", A)
    assert r["an"] == [
        ("portal.corp.test.", CNAME, 60, "api.corp.test."),
        ("api.corp.test.", CNAME, 60, "www.corp.test."),
        ("www.corp.test.", A, 300, "192.0.2.10"),
        ("www.corp.test.", A, 300, "192.0.2.11"),
    ]
    _, r = q(port, "api.corp.test", CNAME)
    assert r["an"] == [("api.corp.test.", CNAME, 60, "www.corp.test.")]


def test_other_types(port):
    assert q(port, "www.corp.test", AAAA)[1]["an"] == [("www.corp.test.", AAAA, 300, "2001:db8::10")]
    assert q(port, "corp.test", MX)[1]["an"] == [
        ("corp.test.", MX, 300, (10, "mail.corp.test.")), ("corp.test.", MX, 300, (20, "mail-backup.corp.test."))]
    assert q(port, "info.corp.test", TXT)[1]["an"] == [("info.corp.test.", TXT, 300, ("first string", "second; with semicolon"))]
    assert q(port, "corp.test", NS)[1]["an"] == [("corp.test.", NS, 3600, "ns1.corp.test."), ("corp.test.", NS, 3600, "ns2.corp.test.")]


SOA_RR = ("corp.test.", SOA, 3600, ("ns1.corp.test.", "hostmaster.corp.test.", 2025030401, 7200, 900, 1209600, 300))


def test_nodata_and_empty_non_terminal(port):
    _, r = q(port, "www.corp.test", MX)
    assert (r["rcode"], r["an"], r["ns"]) == (0, [], [SOA_RR])
    _, r = q(port, "sub.corp.test", A)
    assert (r["rcode"], r["an"], r["ns"]) == (0, [], [SOA_RR])


def test_nxdomain_and_refused(port):
    _, r = q(port, "nope.corp.test", A)
    assert (r["rcode"], r["an"], r["ns"], r["aa"]) == (3, [], [SOA_RR], 1)
    _, r = q(port, "www.example.com", A)
    assert (r["rcode"], r["an"], r["ns"]) == (5, [], [])


def test_notimp_and_formerr(port):
    r = parse(udp(port, build("www.corp.test", A, qid=77, opcode=2)))
    assert (r["id"], r["rcode"], r["an"]) == (77, 4, [])
    r = parse(udp(port, build("www.corp.test", A, qid=78, qdcount=2)))
    assert (r["id"], r["rcode"], r["an"]) == (78, 1, [])


def test_udp_truncation(port):
    raw = udp(port, build("big.corp.test", TXT))
    r = parse(raw)
    assert len(raw) <= 512
    assert r["tc"] == 1 and r["an"] == [] and r["rcode"] == 0


def test_tcp_full_answers_on_one_connection(port):
    big, small = tcp(port, [build("big.corp.test", TXT), build("mail.corp.test", A, qid=9)])
    r = parse(big)
    assert r["tc"] == 0 and len(r["an"]) == 40
    assert r["an"][0][3] == ("record number 00 padding padding padding padding",)
    r2 = parse(small)
    assert r2["id"] == 9 and r2["an"] == [("mail.corp.test.", A, 300, "192.0.2.25")]
