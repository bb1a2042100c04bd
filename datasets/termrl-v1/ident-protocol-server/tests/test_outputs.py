"""Users and their connections are created here; the server must find the owner of each connection in the kernel's tables."""
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
RNG = random.Random(113)
DIR = tempfile.mkdtemp(prefix="ident")
os.chmod(DIR, 0o755)
USERS = ["u%s%d" % ("".join(RNG.choice("abcdefghij") for _ in range(4)), i) for i in range(4)]
HIDDEN = USERS[3]
ORPHAN_UID = 40000 + RNG.randrange(9999)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()
HELPER = f"""import socket, sys
fam = socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET
s = socket.socket(fam)
if fam == socket.AF_INET:
    s.bind(("127.0.0.1", 0))
s.connect(("::ffff:127.0.0.1" if fam == socket.AF_INET6 else "127.0.0.1", int(sys.argv[2])))
print(s.getsockname()[1], flush=True)
sys.stdin.readline()
"""


@pytest.fixture(scope="module", autouse=True)
def identd():
    for u in USERS:
        subprocess.run(["useradd", "-M", "-s", "/usr/sbin/nologin", u], check=True)
    with open(f"{DIR}/helper.py", "w") as f:
        f.write(HELPER)
    with open(f"{DIR}/hide", "w") as f:
        f.write(f"# hidden\n{HIDDEN}\n")
    proc = subprocess.Popen(["bash", "/app/identd/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, IDENT_PORT=str(PORT), IDENT_HIDE=f"{DIR}/hide"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 240  # hang guard only
    while time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
            break
        except OSError:
            time.sleep(0.2)
    yield
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    for u in USERS:
        subprocess.run(["userdel", u], check=False)


class Listener:
    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.accepted = []

    def connect_as(self, user=None, uid=None, family="4"):
        kw = {"user": user} if user else {"user": uid, "group": uid}
        p = subprocess.Popen([sys.executable, f"{DIR}/helper.py", family, str(self.port)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, **kw)
        line = p.stdout.readline()
        assert line.strip().isdigit(), f"helper failed for {user or uid}"
        self.accepted.append(self.sock.accept()[0])
        return p, int(line)


def query(lines, src="127.0.0.1"):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT, source_address=(src, 0))
    f = s.makefile("rb")
    out = []
    for line in lines:
        s.sendall(line.encode() + b"\r\n")
        raw = f.readline()
        assert raw.endswith(b"\r\n"), raw
        out.append(raw[:-2].decode())
    s.close()
    return out


def normal(reply):
    """Compare replies without caring about spaces around the separators."""
    return [p.strip() for p in reply.replace(",", " , ").split(":")]


def expect(lines, wants, src="127.0.0.1"):
    got = query(lines, src)
    assert [normal(g) for g in got] == [normal(w) for w in wants], f"{lines}: {got}"


def test_owner_of_each_connection():
    lst = Listener()
    conns = []
    for u in USERS[:3] * 2:
        p, port = lst.connect_as(u)
        conns.append((p, port, u))
    RNG.shuffle(conns)
    expect(["%d , %d" % (port, lst.port) for _, port, _ in conns],
           ["%d , %d : USERID : UNIX : %s" % (port, lst.port, u) for _, port, u in conns])
    for p, _, _ in conns:
        p.communicate("\n", timeout=TIMEOUT)


def test_hidden_users_and_uids_without_names():
    lst = Listener()
    p1, port1 = lst.connect_as(HIDDEN)
    p2, port2 = lst.connect_as(uid=ORPHAN_UID)
    expect(["%d , %d" % (port1, lst.port), "%d,%d" % (port2, lst.port)],
           ["%d , %d : ERROR : HIDDEN-USER" % (port1, lst.port), "%d , %d : USERID : UNIX : %d" % (port2, lst.port, ORPHAN_UID)])
    for p in (p1, p2):
        p.communicate("\n", timeout=TIMEOUT)


def test_only_matching_established_connections():
    lst = Listener()
    p, port = lst.connect_as(USERS[0])
    q, qport = lst.connect_as(USERS[1])
    expect(["%d , %d" % (port, lst.port)], ["%d , %d : ERROR : NO-USER" % (port, lst.port)], src="127.0.0.9")
    expect(["%d , %d" % (lst.port, port), "%d , %d" % (port, lst.port + 1 if lst.port < 65535 else 1)],
           ["%d , %d : USERID : UNIX : root" % (lst.port, port),  # the accepting side belongs to the tests (root)
            "%d , %d : ERROR : NO-USER" % (port, lst.port + 1 if lst.port < 65535 else 1)])
    p.communicate("\n", timeout=TIMEOUT)  # the user's side is closed now: no longer established
    expect(["%d , %d" % (port, lst.port), "%d , %d" % (qport, lst.port)],
           ["%d , %d : ERROR : NO-USER" % (port, lst.port), "%d , %d : USERID : UNIX : %s" % (qport, lst.port, USERS[1])])
    q.communicate("\n", timeout=TIMEOUT)


def test_malformed_queries():
    expect(["0 , 113", "70000 , 5", "hello", "  12 ,34  ", "1,65535"],
           ["0 , 113 : ERROR : INVALID-PORT", "70000 , 5 : ERROR : INVALID-PORT", "0 , 0 : ERROR : INVALID-PORT",
            "12 , 34 : ERROR : NO-USER", "1 , 65535 : ERROR : NO-USER"])


def test_ipv4_mapped_connections():
    try:
        probe = socket.socket(socket.AF_INET6)
        probe.close()
    except OSError:
        pytest.skip("no IPv6 sockets in this kernel")
    lst = Listener()
    p, port = lst.connect_as(USERS[2], family="6")
    expect(["%d , %d" % (port, lst.port)], ["%d , %d : USERID : UNIX : %s" % (port, lst.port, USERS[2])])
    p.communicate("\n", timeout=TIMEOUT)
