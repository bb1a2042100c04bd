"""A DHCP client written here talks to the server over UDP; configurations, MAC addresses and xids are generated per test."""
import ipaddress
import os
import random
import signal
import socket
import struct
import subprocess
import tempfile
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
COOKIE = b"\x63\x82\x53\x63"
DISCOVER, OFFER, REQUEST, DECLINE, ACK, NAK, RELEASE, INFORM = 1, 2, 3, 4, 5, 6, 7, 8


def ip(s):
    return int(ipaddress.IPv4Address(s))


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, rng, pool_size=30, reserve_in_pool=True):
        self.rng = rng
        net = rng.randrange(1, 250)
        self.server_id = ip(f"10.{net}.0.1")
        self.mask, self.router = ip("255.255.255.0"), ip(f"10.{net}.0.254")
        self.dns = [ip(f"10.{net}.0.{rng.randrange(2, 60)}") for _ in range(rng.randrange(1, 4))]
        lo = rng.randrange(100, 180)
        self.pool = list(range(ip(f"10.{net}.0.{lo}"), ip(f"10.{net}.0.{lo}") + pool_size))
        self.lease_time = rng.randrange(600, 100000)
        self.res_mac = [bytes([2, 0, 0, rng.randrange(256), rng.randrange(256), i]) for i in range(2)]
        self.reserved = {self.res_mac[0]: ip(f"10.{net}.0.{rng.randrange(60, 90)}")}
        if reserve_in_pool:
            self.reserved[self.res_mac[1]] = self.pool[2]
        self.dir = tempfile.mkdtemp(prefix="dhcp")
        self.conf, self.leases = f"{self.dir}/dhcp.conf", f"{self.dir}/state/leases"
        lines = ["# generated", f"server_id = {ipaddress.IPv4Address(self.server_id)}",
                 f"pool = {ipaddress.IPv4Address(self.pool[0])} - {ipaddress.IPv4Address(self.pool[-1])}",
                 f"subnet_mask = {ipaddress.IPv4Address(self.mask)}", f"router = {ipaddress.IPv4Address(self.router)}",
                 "dns = " + ", ".join(str(ipaddress.IPv4Address(d)) for d in self.dns),
                 f"lease_time = {self.lease_time}"]
        lines += [f"reserve {m.hex(':')} = {ipaddress.IPv4Address(a)}" for m, a in self.reserved.items()]
        with open(self.conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.port = free_port()
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(["bash", "/app/dhcp/run.sh"], cwd="/", start_new_session=True,
                                     env=dict(os.environ, DHCP_PORT=str(self.port), DHCP_CONF=self.conf,
                                              DHCP_LEASES=self.leases),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        probe = Client(self, b"\x02probe")
        probe.sock.settimeout(1)
        deadline, ready = time.time() + 240, False  # hang guard only
        while not ready and time.time() < deadline and self.proc.poll() is None:
            try:
                probe.send(probe.packet(INFORM, ciaddr=self.pool[0]))
                probe.sock.recv(4096)
                ready = True
            except OSError:
                time.sleep(0.2)
        probe.sock.close()
        if not ready:
            self.stop()
            pytest.fail("the server did not answer on UDP")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)


class Client:
    def __init__(self, server, mac, client_id=None, params=(1, 3, 6)):
        self.server, self.mac, self.client_id, self.params = server, mac, client_id, params
        self.rng = random.Random(mac + (client_id or b""))
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(TIMEOUT)

    def packet(self, mtype, ciaddr=0, requested=None, server_id=None, op=1, cookie=COOKIE, with_type=True):
        self.xid = self.rng.randbytes(4)
        flags = self.rng.choice([0, 0x8000])
        giaddr = self.rng.choice([0, ip("10.250.0.1")])
        head = bytes([op, 1, 6, self.rng.randrange(0, 3)]) + self.xid + struct.pack(">HH", self.rng.randrange(0, 30), flags)
        head += struct.pack(">IIII", ciaddr, 0, 0, giaddr) + self.mac.ljust(16, b"\0") + b"\0" * 192 + cookie
        opts = []
        if with_type:
            opts.append((53, bytes([mtype])))
        if self.client_id is not None:
            opts.append((61, self.client_id))
        if requested is not None:
            opts.append((50, struct.pack(">I", requested)))
        if server_id is not None:
            opts.append((54, struct.pack(">I", server_id)))
        if self.params:
            opts.append((55, bytes(self.params)))
        opts.append((12, b"host-" + self.mac.hex().encode()))
        self.rng.shuffle(opts)
        body = b"".join(bytes([c, len(v)]) + v for c, v in opts)
        if self.rng.random() < 0.5:
            body = b"\0" * self.rng.randrange(1, 4) + body  # pad options
        return head + body + b"\xff" + b"\0" * self.rng.randrange(0, 40)

    def send(self, pkt):
        self.last = pkt
        self.sock.sendto(pkt, ("127.0.0.1", self.server.port))

    def expected(self, req, mtype, yiaddr=0, lease=True):
        s = self.server
        head = bytes([2]) + req[1:3] + b"\0" + req[4:8] + b"\0\0" + req[10:12] + req[12:16] + struct.pack(">I", yiaddr)
        head += b"\0" * 4 + req[24:28] + req[28:44] + b"\0" * 192 + COOKIE
        opts = bytes([53, 1, mtype, 54, 4]) + struct.pack(">I", s.server_id)
        if mtype != NAK:
            if lease:
                opts += bytes([51, 4]) + struct.pack(">I", s.lease_time)
            for code in dict.fromkeys(self.params):  # each at most once, in the order first asked for
                if code == 1:
                    opts += bytes([1, 4]) + struct.pack(">I", s.mask)
                elif code == 3:
                    opts += bytes([3, 4]) + struct.pack(">I", s.router)
                elif code == 6:
                    opts += bytes([6, 4 * len(s.dns)]) + b"".join(struct.pack(">I", d) for d in s.dns)
        return head + opts + b"\xff"

    def recv(self):
        data, addr = self.sock.recvfrom(4096)
        assert addr == ("127.0.0.1", self.server.port)
        return data

    def exchange(self, mtype, expect_type, yiaddr=0, **kw):
        req = self.packet(mtype, **kw)
        self.send(req)
        got = self.recv()
        want = self.expected(req, expect_type, yiaddr, lease=mtype != INFORM)
        assert got == want, f"{self.describe(got)} != expected {self.describe(want)}"
        return got

    def silent(self, mtype, **kw):
        """The request must get no reply: an INFORM sent after it must be the next thing answered."""
        self.send(self.packet(mtype, **kw))
        inform = self.packet(INFORM, ciaddr=self.server.pool[-1])
        self.send(inform)
        got = self.recv()
        assert got[4:8] == inform[4:8], f"expected no reply, got {self.describe(got)}"

    @staticmethod
    def describe(pkt):
        return f"(yiaddr {ipaddress.IPv4Address(pkt[16:20])}, options {pkt[240:].hex()})"

    def offer(self, expect, **kw):
        return self.exchange(DISCOVER, OFFER, expect, **kw)

    def dora(self, expect, **kw):
        self.offer(expect, **kw)
        return self.exchange(REQUEST, ACK, expect, requested=expect, server_id=self.server.server_id)


@pytest.fixture
def server(request):
    s = Server(random.Random(request.node.name))
    yield s
    s.stop()


def mac(i):
    return bytes([2, 0x10, 0, 0, i // 256, i % 256])


def test_dora_reply_format(server):
    a = Client(server, mac(1), params=(6, 1, 15, 3, 1))
    a.dora(server.pool[0])
    b = Client(server, mac(2), params=())
    b.dora(server.pool[1])
    c = Client(server, mac(3), params=(3,))
    c.exchange(INFORM, ACK, 0, ciaddr=ip("10.77.0.5"))


def test_allocation_rules(server):
    pool = server.pool
    r0 = Client(server, server.res_mac[0])
    r0.dora(server.reserved[server.res_mac[0]], requested=pool[5])  # a reservation wins over everything
    r1 = Client(server, server.res_mac[1])
    clients = [Client(server, mac(10 + i)) for i in range(4)]
    clients[0].offer(pool[0])
    clients[1].offer(pool[1])  # the offer to client 0 holds pool[0]
    clients[2].offer(pool[3])  # pool[2] is reserved for another MAC
    clients[0].offer(pool[0])  # asking again: the same offer
    clients[3].offer(pool[9], requested=pool[9])  # a free requested address is honoured
    want = Client(server, mac(20))
    want.offer(pool[4], requested=pool[1])  # taken (offered to client 1): lowest available instead
    r1.dora(pool[2])
    clients[1].exchange(REQUEST, ACK, pool[1], requested=pool[1], server_id=server.server_id)
    clients[1].offer(pool[1])  # a client with a lease is offered its lease
    same_hw_a = Client(server, mac(30), client_id=b"\x01alpha")
    same_hw_b = Client(server, mac(30), client_id=b"\xffbeta-host")
    same_hw_a.dora(pool[5])
    same_hw_b.dora(pool[6])  # the client identifier, not the hardware address, identifies the client
    same_hw_a.offer(pool[5])


def test_selecting_another_server_and_nak(server):
    pool = server.pool
    a, b, c = Client(server, mac(1)), Client(server, mac(2)), Client(server, mac(3))
    a.offer(pool[0])
    a.silent(REQUEST, requested=pool[0], server_id=ip("192.0.2.9"))  # it chose another server: forget the offer
    b.offer(pool[0])
    b.exchange(REQUEST, NAK, requested=pool[3], server_id=server.server_id)  # not what was offered
    b.offer(pool[0])
    b.exchange(REQUEST, ACK, pool[0], requested=pool[0], server_id=server.server_id)
    c.offer(pool[1])
    c.exchange(REQUEST, ACK, pool[1], requested=pool[1], server_id=server.server_id)
    c.exchange(REQUEST, ACK, pool[1], requested=pool[1], server_id=server.server_id)  # a retransmission: its lease
    c.exchange(REQUEST, NAK, requested=pool[2], server_id=server.server_id)  # reserved for another client


def test_init_reboot_and_renewing(server):
    pool = server.pool
    a, b, stranger = Client(server, mac(1)), Client(server, mac(2)), Client(server, mac(99))
    a.dora(pool[0])
    b.dora(pool[1])
    a.exchange(REQUEST, ACK, pool[0], requested=pool[0])  # INIT-REBOOT with its own address
    a.exchange(REQUEST, NAK, requested=pool[1])  # someone else's address
    a.exchange(REQUEST, NAK, requested=pool[7])  # not its lease
    stranger.silent(REQUEST, requested=pool[8])  # no record of this client and nobody holds it
    stranger.exchange(REQUEST, NAK, requested=pool[1])  # held by another client
    b.exchange(REQUEST, ACK, pool[1], ciaddr=pool[1])  # RENEWING
    b.exchange(REQUEST, NAK, ciaddr=pool[0])
    stranger.silent(REQUEST)  # neither a requested address nor ciaddr


def test_release_and_decline(server):
    pool = server.pool
    a, b, c, d = (Client(server, mac(i)) for i in range(1, 5))
    a.dora(pool[0])
    b.dora(pool[1])
    a.silent(RELEASE, ciaddr=pool[0])
    a.exchange(REQUEST, NAK, ciaddr=pool[0])  # the lease is gone
    c.dora(pool[0])  # and the address is free again
    b.silent(DECLINE, requested=pool[1])  # the address is in use by something else: never offer it again
    b.dora(pool[3])
    d.offer(pool[4], requested=pool[1])
    b.silent(RELEASE, ciaddr=pool[0])  # not its lease: nothing happens
    d.offer(pool[4])


def test_pool_exhaustion_and_malformed_requests():
    s = Server(random.Random(7), pool_size=4, reserve_in_pool=True)
    try:
        clients = [Client(s, mac(i)) for i in range(5)]
        for c, i in zip(clients, (0, 1, 3)):
            c.dora(s.pool[i])
        clients[3].silent(DISCOVER)  # the pool is exhausted (pool[2] is reserved)
        clients[0].silent(RELEASE, ciaddr=s.pool[0])
        clients[3].offer(s.pool[0])
        clients[4].silent(DISCOVER)  # the offer to client 3 holds the last address
        bad = clients[4]
        bad.silent(DISCOVER, op=2)
        bad.silent(DISCOVER, cookie=b"\x63\x82\x53\x64")
        bad.silent(DISCOVER, with_type=False)
        bad.send(b"\x01\x01\x06\x00" + b"\0" * 100)
        bad.silent(RELEASE, ciaddr=s.pool[3])
    finally:
        s.stop()


def test_leases_survive_restart(server):
    pool = server.pool
    a, b, c, d = (Client(server, mac(i)) for i in range(1, 5))
    a.dora(pool[0])
    b.dora(pool[1])
    b.silent(DECLINE, requested=pool[1])
    c.offer(pool[3])  # only an offer
    server.stop()
    server.start()
    a.exchange(REQUEST, ACK, pool[0], requested=pool[0])
    a.exchange(REQUEST, ACK, pool[0], ciaddr=pool[0])
    d.offer(pool[3])  # offers are not kept across a restart
    b.offer(pool[4])  # the declined address stays excluded
