"""The TFTP server started here on its own port and root, driven by a client written here."""
import os
import random
import signal
import socket
import struct
import subprocess
import time

import pytest

RRQ, WRQ, DATA, ACK, ERROR, OACK = 1, 2, 3, 4, 5, 6
WAIT = 8.0  # seconds without any answer before a client gives up


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("root")
    outside = tmp_path_factory.mktemp("outside")
    rng = random.Random(1350)
    files = {
        "small.bin": bytes(rng.randrange(256) for _ in range(1234)),
        "exact.bin": bytes(rng.randrange(256) for _ in range(1024)),
        "empty.bin": b"",
        "boot/pxelinux.cfg": b"DEFAULT linux\nLABEL linux\n  KERNEL vmlinuz\r\n  APPEND initrd=x\rquiet\n",
        "big.bin": bytes(rng.randrange(256) for _ in range(100_000)),
        "wrap.bin": bytes(rng.randrange(256) for _ in range(8 * 65540 + 3)),
    }
    for name, data in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    (outside / "secret.txt").write_bytes(b"top secret\n")
    (root / "escape").symlink_to(outside / "secret.txt")
    (root / "subdir").mkdir()
    port = free_port()
    proc = subprocess.Popen(["bash", "/app/tftpd/run.sh"], env=dict(os.environ, TFTP_PORT=str(port), TFTP_ROOT=str(root)),
                            cwd="/", start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok = False
    deadline = time.time() + 15
    while time.time() < deadline and not ok:
        s = client_socket(1.0)
        s.sendto(rrq("empty.bin", "octet"), ("127.0.0.1", port))
        try:
            pkt, addr = s.recvfrom(65536)
            ok = True
            s.sendto(struct.pack("!HH", ACK, 1), addr)
        except OSError:
            time.sleep(0.2)
        s.close()
    yield (port if ok else None), files
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def client_socket(timeout=WAIT):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    s.settimeout(timeout)
    return s


def rrq(name, mode, opts=(), op=RRQ):
    body = name.encode() + b"\0" + mode.encode() + b"\0"
    for k, v in opts:
        body += k.encode() + b"\0" + str(v).encode() + b"\0"
    return struct.pack("!H", op) + body


def parse_oack(pkt):
    parts = pkt[2:].split(b"\0")[:-1]
    return {parts[i].decode().lower(): parts[i + 1].decode() for i in range(0, len(parts), 2)}


def get(port, name, mode="octet", opts=()):
    """Full read; returns (data, block sizes seen, oack dict or None). Raises on ERROR."""
    assert port, "server did not start"
    s = client_socket()
    s.sendto(rrq(name, mode, opts), ("127.0.0.1", port))
    pkt, tid = s.recvfrom(70000)
    oack = None
    op = struct.unpack("!H", pkt[:2])[0]
    if op == ERROR:
        s.close()
        raise TftpError(struct.unpack("!H", pkt[2:4])[0])
    blksize = 512
    if op == OACK:
        oack = parse_oack(pkt)
        blksize = int(oack.get("blksize", 512))
        s.sendto(struct.pack("!HH", ACK, 0), tid)
        pkt, addr = s.recvfrom(70000)
        assert addr == tid
    data, sizes, expect = bytearray(), [], 1
    while True:
        op, block = struct.unpack("!HH", pkt[:4])
        if op == OACK and oack is not None and expect == 1:  # a retransmitted OACK (slow client): ignore
            pkt, addr = s.recvfrom(70000)
            continue
        assert op == DATA, f"expected DATA, got opcode {op}"
        if block == expect % 65536:
            payload = pkt[4:]
            data += payload
            sizes.append(len(payload))
            s.sendto(struct.pack("!HH", ACK, block), tid)
            if len(payload) < blksize:
                break
            expect += 1
        pkt, addr = s.recvfrom(70000)
        assert addr == tid, "DATA from another port than the transfer's"
    s.close()
    return bytes(data), sizes, oack


class TftpError(Exception):
    def __init__(self, code):
        super().__init__(f"ERROR {code}")
        self.code = code


def error_code(port, packet):
    s = client_socket()
    s.sendto(packet, ("127.0.0.1", port))
    pkt, _ = s.recvfrom(70000)
    s.close()
    assert struct.unpack("!H", pkt[:2])[0] == ERROR, pkt[:4]
    return struct.unpack("!H", pkt[2:4])[0]


def test_octet_default_block_size(server):
    port, files = server
    data, sizes, oack = get(port, "small.bin")
    assert data == files["small.bin"] and oack is None
    assert sizes == [512, 512, 210]
    data, sizes, _ = get(port, "/big.bin")
    assert data == files["big.bin"]


def test_multiple_of_block_size_ends_with_empty_block(server):
    port, files = server
    data, sizes, _ = get(port, "exact.bin")
    assert data == files["exact.bin"] and sizes == [512, 512, 0]
    data, sizes, _ = get(port, "empty.bin")
    assert data == b"" and sizes == [0]


def test_netascii_conversion(server):
    port, files = server
    raw = files["boot/pxelinux.cfg"]
    want = raw.replace(b"\r", b"\r\0").replace(b"\n", b"\r\n")
    data, _, oack = get(port, "boot/pxelinux.cfg", "NetASCII", [("tsize", 0)])
    assert data == want
    assert oack == {"tsize": str(len(want))}


def test_options_negotiation(server):
    port, files = server
    data, sizes, oack = get(port, "big.bin", "octet", [("BLKSIZE", 1428), ("tsize", 0), ("windowsize", 4)])
    assert oack == {"blksize": "1428", "tsize": "100000"}, oack
    assert data == files["big.bin"] and sizes[0] == 1428 and len(sizes) == 100000 // 1428 + 1
    data, sizes, oack = get(port, "big.bin", "octet", [("blksize", 70000)])
    assert oack == {"blksize": "65464"} and sizes[:1] == [65464] and data == files["big.bin"]
    data, sizes, oack = get(port, "small.bin", "octet", [("frobnicate", 1)])
    assert oack is None and sizes == [512, 512, 210]
    with pytest.raises(TftpError) as e:
        get(port, "small.bin", "octet", [("blksize", 4)])
    assert e.value.code == 8


def test_block_numbers_wrap(server):
    port, files = server
    data, sizes, oack = get(port, "wrap.bin", "octet", [("blksize", 8)])
    assert oack == {"blksize": "8"}
    assert data == files["wrap.bin"] and len(sizes) == 65541


def test_error_codes(server):
    port, _ = server
    assert port, "server did not start"
    assert error_code(port, rrq("missing.bin", "octet")) == 1
    assert error_code(port, rrq("subdir", "octet")) == 1
    assert error_code(port, rrq("../outside/secret.txt", "octet")) == 2
    assert error_code(port, rrq("boot/../../secret.txt", "octet")) == 2
    assert error_code(port, rrq("escape", "octet")) == 2
    assert error_code(port, rrq("upload.bin", "octet", op=WRQ)) == 2
    assert error_code(port, rrq("small.bin", "mail")) == 4
    assert error_code(port, struct.pack("!HH", ACK, 3)) == 4


def test_stray_sender_gets_error_5_and_transfer_continues(server):
    port, files = server
    assert port, "server did not start"
    s, stray = client_socket(), client_socket()
    s.sendto(rrq("small.bin", "octet"), ("127.0.0.1", port))
    pkt, tid = s.recvfrom(70000)
    assert struct.unpack("!HH", pkt[:4]) == (DATA, 1)
    data = bytearray(pkt[4:])
    stray.sendto(struct.pack("!HH", ACK, 1), tid)
    epkt, eaddr = stray.recvfrom(70000)
    assert eaddr == tid and struct.unpack("!HH", epkt[:4]) == (ERROR, 5)
    block = 1
    while True:
        s.sendto(struct.pack("!HH", ACK, block), tid)
        if len(pkt) - 4 < 512:
            break
        pkt, addr = s.recvfrom(70000)
        assert addr == tid
        op, n = struct.unpack("!HH", pkt[:4])
        assert op == DATA
        if n == block + 1:
            block = n
            data += pkt[4:]
    assert bytes(data) == files["small.bin"]
    s.close()
    stray.close()


def test_two_transfers_at_once(server):
    port, files = server
    assert port, "server did not start"
    a, b = client_socket(), client_socket()
    a.sendto(rrq("big.bin", "octet"), ("127.0.0.1", port))
    pa, ta = a.recvfrom(70000)
    b.sendto(rrq("small.bin", "octet"), ("127.0.0.1", port))
    pb, tb = b.recvfrom(70000)  # must arrive while the first transfer waits for its ACK
    assert ta != tb, "both transfers use the same port"
    got = {"a": bytearray(pa[4:]), "b": bytearray(pb[4:])}
    state = {"a": [a, ta, pa, 1], "b": [b, tb, pb, 1]}
    done = set()
    while len(done) < 2:
        for k in ("a", "b"):
            if k in done:
                continue
            sock, tid, pkt, block = state[k]
            sock.sendto(struct.pack("!HH", ACK, block), tid)
            if len(pkt) - 4 < 512:
                done.add(k)
                continue
            while True:  # a retransmitted copy of the current block may come first
                pkt, _ = sock.recvfrom(70000)
                op, n = struct.unpack("!HH", pkt[:4])
                assert op == DATA
                if n == block + 1:
                    break
            got[k] += pkt[4:]
            state[k][2], state[k][3] = pkt, n
    assert bytes(got["a"]) == files["big.bin"] and bytes(got["b"]) == files["small.bin"]
