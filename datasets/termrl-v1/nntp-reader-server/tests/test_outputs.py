"""An NNTP client written here posts and reads articles; groups, articles and dot-lines are generated per run."""
import os
import random
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
RNG = random.Random(119)
DIR = tempfile.mkdtemp(prefix="nntp")
GROUPS = {"corp.announce": "Company announcements", "corp.eng.%d" % RNG.randrange(100): "Engineering talk",
          "alt.test": "Tests and more tests", "misc.empty": "Nobody posts here"}
ENG = [g for g in GROUPS if g.startswith("corp.eng")][0]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


class Server:
    def __init__(self):
        with open(f"{DIR}/groups", "w") as f:
            f.write("# groups\n" + "".join(f"{g} {d}\n" for g, d in GROUPS.items()))
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(["bash", "/app/nntp/run.sh"], cwd="/", start_new_session=True,
                                     env=dict(os.environ, NNTP_PORT=str(PORT), NNTP_SPOOL=f"{DIR}/spool",
                                              NNTP_GROUPS=f"{DIR}/groups"),
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


SERVER = None


@pytest.fixture(scope="module", autouse=True)
def server():
    global SERVER
    SERVER = Server()
    yield
    SERVER.stop()


class Model:
    def __init__(self):
        self.articles, self.groups = {}, {g: {} for g in GROUPS}  # msgid -> text; group -> {n: msgid}
        self.high = {g: 0 for g in GROUPS}

    def add(self, msgid, text, groups):
        self.articles[msgid] = text
        for g in dict.fromkeys(groups):
            self.high[g] += 1
            self.groups[g][self.high[g]] = msgid

    def group_line(self, g):
        ns = sorted(self.groups[g])
        return (len(ns), ns[0], ns[-1]) if ns else (0, self.high[g] + 1, self.high[g])


M = Model()
LOCK = threading.Lock()


class Client:
    def __init__(self):
        self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
        self.f = self.sock.makefile("rb")
        greet = self.line()
        assert greet.startswith("200 "), greet

    def line(self):
        raw = self.f.readline()
        assert raw.endswith(b"\r\n"), f"lines end with CRLF: {raw!r}"
        return raw[:-2].decode()

    def cmd(self, text):
        self.sock.sendall(text.encode() + b"\r\n")
        return self.line()

    def block(self):
        out = []
        while True:
            l = self.line()
            if l == ".":
                return out
            out.append(l[1:] if l.startswith(".") else l)

    def post(self, text):
        assert self.cmd("POST").startswith("340")
        body = "".join(("." + l if l.startswith(".") else l) + "\r\n" for l in text.split("\r\n")[:-1])
        self.sock.sendall(body.encode() + b".\r\n")
        return self.line()

    def close(self):
        self.cmd("QUIT")
        self.sock.close()


def article(rng, groups, msgid=True, extra_headers=(), body_lines=None):
    subject = "Re: " * rng.randrange(0, 2) + " ".join(rng.choice(["build", "lunch", "outage", "Q4", "plan", "tabs\there"]) for _ in range(rng.randrange(1, 5)))
    head = [f"From: {rng.choice(['ana', 'bo', 'chen'])}@corp.test ({rng.choice(['Ana', 'Bo', 'Chen'])})",
            f"Newsgroups: {','.join(groups)}", f"Subject: {subject}", "Date: Sat, 05 Dec 2026 %02d:%02d:00 +0000" % (rng.randrange(24), rng.randrange(60))]
    if rng.random() < 0.3:
        head.append("Subject-Extra: long header\r\n\tcontinued on the next line")
    if rng.random() < 0.4:
        head.append("References: <%d@elsewhere>" % rng.randrange(10 ** 6))
    head += list(extra_headers)
    if msgid:
        head.append("Message-ID: <%d.%d@test.client>" % (rng.randrange(10 ** 9), rng.randrange(10 ** 6)))
    rng.shuffle(head)
    if body_lines is None:
        body_lines = [rng.choice([".", "..", ".leading dot", "plain text", "", "   indented", "ünïcode ok", "-- ",
                                  "x" * rng.randrange(0, 200)]) for _ in range(rng.randrange(0, 12))]
    return "\r\n".join(head) + "\r\n\r\n" + "".join(l + "\r\n" for l in body_lines)


def do_post(c, text, groups):
    resp = c.post(text)
    assert resp.startswith("240"), resp
    m = re.search(r"^Message-ID: (.*)$", text, re.M | re.I)
    if m:
        msgid = m.group(1).strip()
    else:
        ns = M.high[groups[0]] + 1
        c.cmd("GROUP " + groups[0])
        r = c.cmd("HEAD %d" % ns)
        assert r.startswith("221 %d <" % ns), r
        lines = c.block()
        msgid = r.split()[2]
        assert lines[-1] == "Message-ID: " + msgid, "a generated Message-ID is added as the last header"
        head, body = text.split("\r\n\r\n", 1)
        text = head + "\r\nMessage-ID: " + msgid + "\r\n\r\n" + body
    M.add(msgid, text, groups)
    return msgid


def unfold(v):
    return re.sub(r"\r\n(?=[ \t])", "", v).replace("\t", " ")


def hval(text, name):
    head = text.split("\r\n\r\n", 1)[0]
    for m in re.finditer(r"^([^:\r\n]+):[ \t]*(.*(?:\r\n[ \t].*)*)", head, re.M):
        if m.group(1).lower() == name.lower():
            return unfold(m.group(2)).strip()
    return ""


def over_line(n, text):
    body = text.split("\r\n\r\n", 1)[1]
    fields = [hval(text, h) for h in ("Subject", "From", "Date", "Message-ID", "References")]
    return "%d\t%s\t%d\t%d" % (n, "\t".join(fields), len(text.encode()), body.count("\r\n"))


def test_capabilities_lists_and_errors():
    c = Client()
    assert c.cmd("CAPABILITIES").startswith("101")
    caps = c.block()
    assert {"VERSION 2", "READER", "POST", "OVER"} <= set(caps)
    assert c.cmd("LIST").startswith("215")
    assert c.block() == ["%s 0 1 y" % g for g in sorted(GROUPS)]
    assert c.cmd("list newsgroups").startswith("215")
    assert c.block() == ["%s\t%s" % (g, GROUPS[g]) for g in sorted(GROUPS)]
    assert c.cmd("GROUP no.such.group").startswith("411")
    assert c.cmd("ARTICLE 1").startswith("412")
    assert c.cmd("NEXT").startswith("412")
    assert c.cmd("FROBNICATE").startswith("500")
    assert c.cmd("GROUP misc.empty") == "211 0 1 0 misc.empty"
    assert c.cmd("ARTICLE").startswith("420")
    assert c.cmd("QUIT").startswith("205")


def test_post_and_read_back():
    rng = random.Random(1)
    c = Client()
    for i in range(25):
        groups = rng.sample(["corp.announce", ENG, "alt.test"], rng.randrange(1, 3))
        text = article(rng, groups, msgid=rng.random() < 0.6)
        with LOCK:
            do_post(c, text, groups)
    for g in GROUPS:
        count, low, high = M.group_line(g)
        assert c.cmd("GROUP " + g) == "211 %d %d %d %s" % (count, low, high, g)
        assert c.cmd("LISTGROUP").startswith("211")
        assert c.block() == [str(n) for n in sorted(M.groups[g])]
        for n, msgid in sorted(M.groups[g].items()):
            text = M.articles[msgid]
            head, body = text.split("\r\n\r\n", 1)
            assert c.cmd("ARTICLE %d" % n) == "220 %d %s" % (n, msgid)
            assert c.block() == text.split("\r\n")[:-1], f"article {n} in {g}"
            assert c.cmd("HEAD %d" % n) == "221 %d %s" % (n, msgid)
            assert c.block() == head.split("\r\n")
            assert c.cmd("BODY %d" % n) == "222 %d %s" % (n, msgid)
            assert c.block() == body.split("\r\n")[:-1]
            assert c.cmd("STAT %d" % n) == "223 %d %s" % (n, msgid)
    msgid = next(iter(M.articles))
    assert c.cmd("ARTICLE " + msgid) == "220 0 " + msgid
    assert c.block() == M.articles[msgid].split("\r\n")[:-1]
    assert c.cmd("STAT <nope@nowhere>").startswith("430")
    c.close()


def test_rejected_posts_store_nothing():
    rng = random.Random(2)
    c = Client()
    dup = next(iter(M.articles))
    bad = [article(rng, ["alt.test"], extra_headers=["Message-ID: " + dup], msgid=False),
           article(rng, ["no.such.group"]),
           article(rng, ["alt.test", "no.such.group"]),
           article(rng, ["alt.test"], msgid=False, extra_headers=["Message-ID: not-an-id"]),
           "From: x@y\r\nSubject: no newsgroups\r\n\r\nbody\r\n",
           "Newsgroups: alt.test\r\nSubject: no from\r\n\r\nbody\r\n",
           "From: x@y\r\nNewsgroups: alt.test\r\n\r\nno subject\r\n",
           "From: x@y\r\nNewsgroups: alt.test\r\nSubject: no blank line\r\n"]
    before = {g: M.group_line(g) for g in GROUPS}
    for text in bad:
        assert c.post(text).startswith("441"), text
    for g in GROUPS:
        assert c.cmd("GROUP " + g) == "211 %d %d %d %s" % (before[g] + (g,))
    c.close()


def test_current_article_pointer():
    c = Client()
    ns = sorted(M.groups[ENG])
    assert len(ns) >= 3
    assert c.cmd("GROUP " + ENG).startswith("211")
    assert c.cmd("LAST").startswith("422")
    walked = [ns[0]]
    while True:
        r = c.cmd("NEXT")
        if r.startswith("421"):
            break
        assert r == "223 %d %s" % (ns[len(walked)], M.groups[ENG][ns[len(walked)]])
        walked.append(int(r.split()[1]))
    assert walked == ns
    assert c.cmd("STAT") == "223 %d %s" % (ns[-1], M.groups[ENG][ns[-1]])
    other = M.groups["corp.announce"][min(M.groups["corp.announce"])]
    assert c.cmd("HEAD " + other).startswith("221 0 ")
    c.block()
    assert c.cmd("STAT").split()[1] == str(ns[-1]), "a Message-ID lookup does not move the pointer"
    assert c.cmd("LAST").split()[1] == str(ns[-2])
    assert c.cmd("ARTICLE %d" % (ns[-1] + 50)).startswith("423")
    assert c.cmd("STAT %d" % ns[0]).split()[1] == str(ns[0])
    assert c.cmd("NEXT").split()[1] == str(ns[1])
    c.close()


def test_overview():
    c = Client()
    for g in ("corp.announce", ENG, "alt.test"):
        ns = sorted(M.groups[g])
        assert c.cmd("GROUP " + g).startswith("211")
        ranges = [str(ns[0]), "%d-" % ns[1], "%d-%d" % (ns[0], ns[-2]), "%d-%d" % (ns[-1], ns[-1] + 99)]
        for r in ranges:
            lo, _, hi = r.partition("-")
            sel = [n for n in ns if int(lo) <= n <= (int(hi) if hi else 10 ** 9)] if "-" in r else [int(r)]
            assert c.cmd("OVER " + r).startswith("224")
            assert c.block() == [over_line(n, M.articles[M.groups[g][n]]) for n in sel], f"OVER {r} in {g}"
        assert c.cmd("OVER").startswith("224")
        assert c.block() == [over_line(ns[0], M.articles[M.groups[g][ns[0]]])]
        assert c.cmd("OVER %d-" % (ns[-1] + 1)).startswith("423")
    c.close()


def test_concurrent_posters_and_restart():
    errors = []

    def run(i):
        try:
            rng = random.Random(100 + i)
            c = Client()
            for _ in range(6):
                assert c.post(article(rng, ["alt.test", "misc.empty"])).startswith("240")
            c.close()
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    before = M.high["alt.test"]
    threads = [threading.Thread(target=run, args=(i,)) for i in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    c = Client()
    assert c.cmd("GROUP alt.test") == "211 %d %d %d alt.test" % (len(M.groups["alt.test"]) + 30, min(M.groups["alt.test"]), before + 30)
    assert c.cmd("LISTGROUP misc.empty").startswith("211 30 1 30")
    assert c.block() == [str(n) for n in range(1, 31)]
    ids = set()
    for n in range(1, 31):
        r = c.cmd("STAT %d" % n)
        ids.add(r.split()[2])
    assert len(ids) == 30, "every posting gets its own Message-ID"
    c.close()
    SERVER.stop()
    SERVER.start()
    c = Client()
    assert c.cmd("GROUP alt.test") == "211 %d %d %d alt.test" % (len(M.groups["alt.test"]) + 30, min(M.groups["alt.test"]), before + 30)
    g, n = ENG, max(M.groups[ENG])
    assert c.cmd("GROUP " + g).startswith("211")
    assert c.cmd("ARTICLE %d" % n) == "220 %d %s" % (n, M.groups[g][n])
    assert c.block() == M.articles[M.groups[g][n]].split("\r\n")[:-1]
    assert c.post(article(random.Random(9), ["misc.empty"])).startswith("240")
    assert c.cmd("GROUP misc.empty") == "211 31 1 31 misc.empty", "numbering goes on after a restart"
    c.close()
