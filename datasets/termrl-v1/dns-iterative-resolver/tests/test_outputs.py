"""Authoritative servers with generated zones run here on 127.0.0.x; the resolver's upstream queries are counted."""
import os
import random
import signal
import socket
import struct
import subprocess
import threading
import time

import pytest

RNG = random.Random(1035)
A, NS, CNAME, SOA, TXT = 1, 2, 5, 6, 16


def lbl(n=6):
    return "".join(RNG.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n))


def ip():
    return f"10.{RNG.randrange(256)}.{RNG.randrange(256)}.{RNG.randrange(1, 255)}"


def enc(name):
    return b"".join(bytes([len(l)]) + l.encode() for l in name.split(".") if l) + b"\0"


def dec(msg, off):
    labels, end = [], None
    while True:
        n = msg[off]
        if n & 0xC0 == 0xC0:
            end = end or off + 2
            off = ((n & 0x3F) << 8) | msg[off + 1]
            continue
        if n == 0:
            return ".".join(labels), end or off + 1
        labels.append(msg[off + 1:off + 1 + n].decode())
        off += 1 + n


# ---- the lab: names generated here ----
TLD, CORP_LBL, LAB = lbl(4), lbl(5), lbl(3)
TESTZ, CORPZ, LABZ = TLD, f"{CORP_LBL}.{TLD}", LAB
NSDNS = f"ns.{lbl(4)}-dns.{TLD}"          # the glueless delegation's server name, inside TESTZ
IPS = {"root": "127.0.0.2", "test": "127.0.0.3", "corp": "127.0.0.4", "lab": "127.0.0.5"}
WWW, WWW_IPS = f"www.{TESTZ}", [ip(), ip()]
TXTNAME = f"txt.{TESTZ}"
CWWW, CWWW_IP = f"www.{CORPZ}", ip()
OTHER, OTHER_IP = f"{lbl()}.{CORPZ}", ip()
CH1, CH2, HOST, HOST_IP = f"c1.{CORPZ}", f"c2.{CORPZ}", f"host.{LABZ}", ip()
DANGLING = f"dangling.{LABZ}"
# zone data per server: records {(name, type): [(ttl, data)]}, delegations {child: ([ns names], {ns: glue ip} or {})}
SERVERS = {
    "root": ("", {}, {TESTZ: ([f"ns1.{TESTZ}"], {f"ns1.{TESTZ}": IPS["test"]}), LABZ: ([NSDNS], {})}),
    "test": (TESTZ, {(WWW, A): [(3600, WWW_IPS[0]), (1800, WWW_IPS[1])], (TXTNAME, TXT): [(600, b"\x05hello")],
                     (f"ns1.{TESTZ}", A): [(3600, IPS["test"])], (NSDNS, A): [(3600, IPS["lab"])],
                     (f"alias.{TESTZ}", CNAME): [(900, CWWW)]},
             {CORPZ: ([f"ns.{CORPZ}"], {f"ns.{CORPZ}": IPS["corp"]})}),
    "corp": (CORPZ, {(CWWW, A): [(1200, CWWW_IP)], (OTHER, A): [(1200, OTHER_IP)], (CH1, CNAME): [(500, CH2)],
                     (CH2, CNAME): [(400, HOST)], (f"ns.{CORPZ}", A): [(3600, IPS["corp"])]}, {}),
    "lab": (LABZ, {(HOST, A): [(700, HOST_IP)], (DANGLING, CNAME): [(300, f"nothere.{CORPZ}")]}, {}),
}
SOA_MIN = 3000


class Auth:
    def __init__(self, key, port):
        self.key, (self.zone, self.recs, self.deleg) = key, SERVERS[key]
        self.queries = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((IPS[key], port))
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while True:
            msg, addr = self.sock.recvfrom(4096)
            try:
                self.sock.sendto(self.answer(msg), addr)
            except Exception:
                pass

    def rr(self, name, rtype, ttl, data, qname):
        owner = b"\xc0\x0c" if name.lower() == qname.lower() else enc(name)  # compress the question name
        rd = socket.inet_aton(data) if rtype == A else data if rtype == TXT else enc(data) if rtype in (NS, CNAME) else data
        return owner + struct.pack("!HHIH", rtype, 1, ttl, len(rd)) + rd

    def soa(self):
        rd = enc(f"ns.{self.zone}") + enc(f"admin.{self.zone}") + struct.pack("!5I", 1, 3600, 600, 86400, SOA_MIN)
        return enc(self.zone) + struct.pack("!HHIH", SOA, 1, 3600, len(rd)) + rd

    def answer(self, msg):
        ident, flags = struct.unpack("!2H", msg[:4])
        qname, off = dec(msg, 12)
        qtype = struct.unpack("!H", msg[off:off + 2])[0]
        self.queries.append((qname.lower(), qtype, flags & 0x0100))
        q = qname.lower()
        question = msg[12:off + 4]
        an, ns, ad, rcode, aa = [], [], [], 0, 0x0400
        child = max((c for c in self.deleg if q == c or q.endswith("." + c)), key=len, default=None)
        if child is not None:
            names, glue = self.deleg[child]
            ns = [enc(child) + struct.pack("!HHIH", NS, 1, 7200, len(enc(n))) + enc(n) for n in names]
            ad = [self.rr(n, A, 7200, g, qname) for n, g in glue.items()]
            aa = 0
        elif (q, qtype) in self.recs:
            an = [self.rr(qname, qtype, t, d, qname) for t, d in self.recs[(q, qtype)]]
        elif (q, CNAME) in self.recs:
            an = [self.rr(qname, CNAME, t, d, qname) for t, d in self.recs[(q, CNAME)]]
        elif any(n == q for n, _ in self.recs):
            ns = [self.soa()]
        else:
            ns, rcode = [self.soa()], 3
        head = struct.pack("!6H", ident, 0x8000 | aa | rcode, 1, len(an), len(ns), len(ad))
        return head + question + b"".join(an) + b"".join(ns) + b"".join(ad)


def pick_port():
    for _ in range(50):
        port = RNG.randrange(20000, 60000)
        socks = []
        try:
            for a in IPS.values():
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                socks.append(s)
                s.bind((a, port))
            return port
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
    raise RuntimeError("no free port")


@pytest.fixture(scope="module")
def lab():
    dns_port = pick_port()
    servers = {k: Auth(k, dns_port) for k in SERVERS}
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    proc = subprocess.Popen(["bash", "/app/resolver/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, RESOLVER_PORT=str(port), DNS_PORT=str(dns_port), ROOT_SERVER=IPS["root"]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 30
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            ask(port, "probe.invalid", qtype=99, timeout=0.5)
            ok = True
        except OSError:
            time.sleep(0.1)
    yield (port, servers) if ok else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def ask(port, name, qtype=A, qclass=1, rd=True, timeout=20):
    ident = RNG.randrange(65536)
    q = struct.pack("!6H", ident, 0x0100 if rd else 0, 1, 0, 0, 0) + enc(name) + struct.pack("!HH", qtype, qclass)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(timeout)
    try:
        s.sendto(q, ("127.0.0.1", port))
        msg = s.recv(65535)
    finally:
        s.close()
    rid, flags, qd, an = struct.unpack("!4H", msg[:8])
    assert rid == ident and flags & 0x8000 and flags & 0x0080, "ID copied, QR and RA set"
    assert bool(flags & 0x0100) == rd, "RD copied"
    assert msg[12:12 + len(q) - 12] == q[12:], "the question is copied as asked"
    off = 12 + len(q) - 12
    recs = []
    for _ in range(an):
        rname, off = dec(msg, off)
        rtype, _, ttl, rdlen = struct.unpack("!HHIH", msg[off:off + 10])
        off += 10
        data = socket.inet_ntoa(msg[off:off + rdlen]) if rtype == A else dec(msg, off)[0].lower()
        recs.append((rname.lower(), rtype, ttl, data))
        off += rdlen
    return flags & 0xF, recs


def counts(lab):
    return {k: len(s.queries) for k, s in lab[1].items()}


def delta(before, lab):
    now = counts(lab)
    return {k: now[k] - before[k] for k in now if now[k] != before[k]}


def test_simple_answer_and_cache(lab):
    assert lab, "the resolver did not start"
    before = counts(lab)
    rcode, recs = ask(lab[0], WWW)
    assert rcode == 0 and sorted(r[3] for r in recs) == sorted(WWW_IPS) and all(r[1] == A and r[0] == WWW for r in recs)
    assert all(r[2] <= 3600 for r in recs)
    assert delta(before, lab) == {"root": 1, "test": 1}
    assert all(q[2] == 0 for s in lab[1].values() for q in s.queries), "upstream queries have RD clear"
    before = counts(lab)
    name = "".join(c.upper() if RNG.random() < 0.5 else c for c in WWW)
    rcode, recs2 = ask(lab[0], name, rd=False)
    assert rcode == 0 and sorted(r[3] for r in recs2) == sorted(WWW_IPS)
    assert delta(before, lab) == {}, "a repeated question is answered from the cache"


def test_cached_delegation_is_used(lab):
    assert lab, "the resolver did not start"
    rcode, recs = ask(lab[0], CWWW)
    assert rcode == 0 and [(r[1], r[3]) for r in recs] == [(A, CWWW_IP)]
    before = counts(lab)
    rcode, recs = ask(lab[0], OTHER)
    assert rcode == 0 and [r[3] for r in recs] == [OTHER_IP]
    assert delta(before, lab) == {"corp": 1}, "a name in a known zone starts at that zone's server"


def test_cname_chain_through_glueless_delegation(lab):
    assert lab, "the resolver did not start"
    rcode, recs = ask(lab[0], CH1)
    assert rcode == 0
    assert [(r[0], r[1], r[3]) for r in recs] == [(CH1, CNAME, CH2), (CH2, CNAME, HOST), (HOST, A, HOST_IP)]
    assert lab[1]["lab"].queries, "the lab zone's server (reached through a glueless delegation) was asked"
    before = counts(lab)
    rcode, recs = ask(lab[0], f"alias.{TESTZ}")
    assert rcode == 0 and [(r[1], r[3]) for r in recs] == [(CNAME, CWWW), (A, CWWW_IP)]
    assert delta(before, lab) == {"test": 1}, "the CNAME target is cached"


def test_negative_answers_and_negative_cache(lab):
    assert lab, "the resolver did not start"
    missing = f"{lbl()}.{CORPZ}"
    rcode, recs = ask(lab[0], missing)
    assert rcode == 3 and recs == []
    rcode, recs = ask(lab[0], TXTNAME)
    assert rcode == 0 and recs == [], "NODATA is an empty NOERROR"
    before = counts(lab)
    assert ask(lab[0], missing) == (3, []) and ask(lab[0], TXTNAME) == (0, [])
    assert delta(before, lab) == {}, "negative answers are cached"
    rcode, recs = ask(lab[0], DANGLING)
    assert rcode == 3 and [(r[0], r[1], r[3]) for r in recs] == [(DANGLING, CNAME, f"nothere.{CORPZ}")]
    rcode, recs = ask(lab[0], f"{lbl()}.{lbl(3)}")
    assert rcode == 3, "a name under no delegated zone does not exist (the root says so)"


def test_unsupported_queries(lab):
    assert lab, "the resolver did not start"
    before = counts(lab)
    assert ask(lab[0], WWW, qtype=28)[0] == 4
    assert ask(lab[0], WWW, qtype=15)[0] == 4
    assert ask(lab[0], WWW, qclass=3)[0] == 4
    assert delta(before, lab) == {}
