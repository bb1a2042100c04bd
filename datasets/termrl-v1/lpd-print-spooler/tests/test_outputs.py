"""An LPD client written here submits, lists and removes jobs; queues, users and documents are generated per run."""
import os
import random
import signal
import socket
import subprocess
import tempfile
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
RNG = random.Random(515)
DIR = tempfile.mkdtemp(prefix="lpd")
QUEUES = ["laser%d" % RNG.randrange(100), "plotter", "labels"]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


class Server:
    def start(self):
        self.proc = subprocess.Popen(["bash", "/app/lpd/run.sh"], cwd="/", start_new_session=True,
                                     env=dict(os.environ, LPD_PORT=str(PORT), LPD_SPOOL=f"{DIR}/spool", LPD_QUEUES=f"{DIR}/queues"),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 240  # hang guard only
        while time.time() < deadline and self.proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
                break
            except OSError:
                time.sleep(0.2)

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)


SERVER = Server()
JOBS = {q: [] for q in QUEUES}  # the model: queue -> list of jobs in order


@pytest.fixture(scope="module", autouse=True)
def lpd():
    with open(f"{DIR}/queues", "w") as f:
        f.write("# queues\n" + "".join(q + "\n" for q in QUEUES) + "\n")
    SERVER.start()
    yield
    SERVER.stop()


def conn():
    return socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)


def ack(s):
    b = s.recv(1)
    assert b in (b"\0", b"\x01"), f"expected an acknowledgement byte, got {b!r}"
    return b


def read_all(s):
    out = b""
    while True:
        d = s.recv(65536)
        if not d:
            return out.decode("latin-1")
        out += d


def submit(queue, user, title, docs, number=None, host="ws1", order="control-first", abort_first=False):
    number = RNG.randrange(1000) if number is None else number
    files = ["dfA%03d%s" % (number, host + ("" if i == 0 else "-%d" % i)) for i in range(len(docs))]
    control = "H%s\nP%s\nJ%s\nN%s\n" % (host, user, title, files[0]) + "".join(
        "%s%s\nU%s\n" % (RNG.choice("flp"), f, f) for f in files)
    cname = "cfA%03d%s" % (number, host)
    s = conn()
    s.sendall(b"\x02" + queue.encode() + b"\n")
    assert ack(s) == b"\0"
    if abort_first:
        s.sendall(b"\x03%d %s\n" % (len(docs[0]), files[0].encode()))
        assert ack(s) == b"\0"
        s.sendall(docs[0] + b"\0")
        assert ack(s) == b"\0"
        s.sendall(b"\x01\n")
        assert ack(s) == b"\0"
    parts = [(b"\x02", cname, control.encode())] + [(b"\x03", f, d) for f, d in zip(files, docs)]
    if order == "data-first":
        parts = parts[1:] + parts[:1]
    for code, name, body in parts:
        s.sendall(code + b"%d %s\n" % (len(body), name.encode()))
        assert ack(s) == b"\0"
        s.sendall(body[:len(body) // 2])
        s.sendall(body[len(body) // 2:] + b"\0")
        assert ack(s) == b"\0"
    s.close()
    job = {"number": number, "user": user, "title": title, "files": files, "bytes": sum(map(len, docs))}
    JOBS[queue].append(job)
    return job


def listing(queue, items=(), long=False):
    out = []
    for pos, j in enumerate(JOBS[queue], 1):
        if items and str(j["number"]) not in items and j["user"] not in items:
            continue
        out.append("%d\t%s\t%03d\t%s\t%d\n" % (pos, j["user"], j["number"], j["title"], j["bytes"]))
        if long:
            out += ["\t%s\n" % f for f in j["files"]]
    return "".join(out) or "no entries\n"


def ask_state(queue, items=(), long=False):
    s = conn()
    s.sendall((b"\x04" if long else b"\x03") + " ".join([queue] + list(items)).encode() + b"\n")
    return read_all(s)


def doc(n):
    return bytes(RNG.randrange(256) for _ in range(n))


def spool_has(queue, job, docs):
    """Find the job's files under the spool, wherever the server keeps them."""
    found = {}
    for root, _, files in os.walk(os.path.join(DIR, "spool")):
        for f in files:
            if f in job["files"]:
                found.setdefault(f, []).append(open(os.path.join(root, f), "rb").read())
    return all(d in found.get(f, []) for f, d in zip(job["files"], docs))


def test_submit_and_list():
    q = QUEUES[0]
    for i in range(6):
        docs = [doc(RNG.randrange(0, 5000)) for _ in range(RNG.randrange(1, 4))]
        job = submit(q, RNG.choice(["ana", "bo", "chen"]), "report %d" % i, docs, order=RNG.choice(["control-first", "data-first"]))
        assert spool_has(q, job, docs), "the job's data files are kept in the spool"
    assert ask_state(q) == listing(q)
    assert ask_state(q, long=True) == listing(q, long=True)
    assert ask_state(q, ["bo"]) == listing(q, ["bo"])
    n = str(JOBS[q][2]["number"])
    assert ask_state(q, [n, "ana"]) == listing(q, [n, "ana"])
    assert ask_state(QUEUES[1]) == "no entries\n"


def test_incomplete_and_rejected_jobs():
    q = QUEUES[1]
    s = conn()
    s.sendall(b"\x02nosuchqueue\n")
    assert ack(s) == b"\x01"
    s.close()
    s = conn()  # a control file that names a data file never sent: no job
    s.sendall(b"\x02" + q.encode() + b"\n")
    assert ack(s) == b"\0"
    body = b"Hws9\nPdan\nJlost\nfdfA001ws9\n"
    s.sendall(b"\x02%d cfA001ws9\n" % len(body))
    assert ack(s) == b"\0"
    s.sendall(body + b"\0")
    assert ack(s) == b"\0"
    s.close()
    s = conn()  # a bad file name is refused
    s.sendall(b"\x02" + q.encode() + b"\n")
    assert ack(s) == b"\0"
    s.sendall(b"\x03 10 ../etc/passwd\n")
    assert ack(s) == b"\x01"
    s.close()
    submit(q, "eve", "after abort", [doc(300)], abort_first=True)
    assert ask_state(q) == listing(q)


def test_remove_jobs():
    q = QUEUES[2]
    for i in range(8):
        submit(q, ["ana", "bo"][i % 2], "doc%d" % i, [doc(100 + i)], number=100 + i)
    s = conn()
    s.sendall(("\x05%s bo 100 101 ana\n" % q).encode())  # bo may only remove his own jobs
    got = read_all(s)
    removed = [j for j in JOBS[q] if j["user"] == "bo" and (j["number"] in (100, 101) or j["user"] == "ana")]
    assert got == "".join("removed %03d\n" % j["number"] for j in removed)
    JOBS[q] = [j for j in JOBS[q] if j not in removed]
    assert ask_state(q) == listing(q)
    s = conn()
    s.sendall(("\x05%s ana\n" % q).encode())  # no list: all of the agent's jobs
    got = read_all(s)
    removed = [j for j in JOBS[q] if j["user"] == "ana"]
    assert got == "".join("removed %03d\n" % j["number"] for j in removed)
    JOBS[q] = [j for j in JOBS[q] if j not in removed]
    submit(q, "cy", "x", [doc(10)], number=7)
    s = conn()
    s.sendall(("\x05%s root cy\n" % q).encode())  # root may remove anyone's
    assert read_all(s) == "removed 007\n"
    JOBS[q] = [j for j in JOBS[q] if j["user"] != "cy"]
    assert ask_state(q, long=True) == listing(q, long=True)


def test_jobs_survive_restart():
    SERVER.stop()
    SERVER.start()
    for q in QUEUES:
        assert ask_state(q, long=True) == listing(q, long=True)
    submit(QUEUES[0], "zed", "after restart", [doc(42)])
    assert ask_state(QUEUES[0]) == listing(QUEUES[0])


def test_two_jobs_on_one_connection():
    q = QUEUES[1]
    s = conn()
    s.sendall(b"\x02" + q.encode() + b"\n")
    assert ack(s) == b"\0"
    for k, user in enumerate(("fay", "gil")):
        d = doc(500 + k)
        name = "dfA%03dbox" % (200 + k)
        control = ("Hbox\nP%s\nJtwin %d\nl%s\n" % (user, k, name)).encode()
        for code, fname, body in ((b"\x03", name, d), (b"\x02", "cfA%03dbox" % (200 + k), control)):
            s.sendall(code + b"%d %s\n" % (len(body), fname.encode()))
            assert ack(s) == b"\0"
            s.sendall(body + b"\0")
            assert ack(s) == b"\0"
        JOBS[q].append({"number": 200 + k, "user": user, "title": "twin %d" % k, "files": [name], "bytes": len(d)})
        assert ask_state(q) == listing(q), "a job is queued as soon as all of its files have arrived"
    s.close()
