"""A SIP user agent written here registers against the registrar; accounts, contacts and header spellings are generated per run."""
import hashlib
import os
import random
import re
import signal
import socket
import subprocess
import tempfile
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
RNG = random.Random(5060)
DIR = tempfile.mkdtemp(prefix="sip")
DOMAIN = "pbx%d.example.test" % RNG.randrange(1000)
USERS = {"alice": "pw-%d" % RNG.randrange(10 ** 6), "bob": "b0b!%d" % RNG.randrange(99), "carol.x": "c = %d" % RNG.randrange(9)}


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


def md5(s):
    return hashlib.md5(s.encode()).hexdigest()


@pytest.fixture(scope="module", autouse=True)
def registrar():
    with open(f"{DIR}/registrar.conf", "w") as f:
        f.write(f"# generated\ndomain = {DOMAIN}\n" + "".join(f"user {u} = {p}\n" for u, p in USERS.items()))
    proc = subprocess.Popen(["bash", "/app/sip/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, SIP_PORT=str(PORT), SIP_CONF=f"{DIR}/registrar.conf"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    probe = UA("alice")
    probe.sock.settimeout(1)
    deadline, ready = time.time() + 240, False  # hang guard only
    while not ready and time.time() < deadline and proc.poll() is None:
        try:
            probe.sock.sendto(probe.request("OPTIONS", []), ("127.0.0.1", PORT))
            probe.sock.recvfrom(65535)
            ready = True
        except OSError:
            time.sleep(0.2)
    if not ready:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the registrar did not answer")
    yield
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def parse(data):
    head = data.decode().split("\r\n\r\n")[0]
    lines = head.split("\r\n")
    code = int(lines[0].split()[1])
    headers = [(l.split(":", 1)[0].strip().lower(), l.split(":", 1)[1].strip()) for l in lines[1:]]
    return code, lines[0], headers


def values(headers, name):
    return [v for k, v in headers if k == name]


class UA:
    def __init__(self, user, domain=None):
        self.user, self.domain = user, domain or DOMAIN
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(TIMEOUT)
        self.call_id = "%x@ua.test" % RNG.randrange(1 << 48)
        self.cseq = RNG.randrange(1, 1000)
        self.tag = "%x" % RNG.randrange(1 << 32)

    def request(self, method, extra, compact=False, to_user=None, cseq_method=None):
        self.cseq += 1
        uri = "sip:" + self.domain
        to = "<sip:%s@%s>" % (to_user or self.user, self.domain)
        hv = {"via": "SIP/2.0/UDP 127.0.0.1:%d;branch=z9hG4bK%x" % (self.sock.getsockname()[1], RNG.randrange(1 << 40))}
        names = {"via": "v", "from": "f", "to": "t", "call-id": "i", "content-length": "l"} if compact else {}
        lines = ["%s %s SIP/2.0" % (method, uri),
                 "%s: %s" % (names.get("via", "Via"), hv["via"]),
                 "%s: SIP/2.0/UDP proxy.test;branch=z9hG4bKproxy" % names.get("via", "VIA"),
                 "%s: \"%s\" <sip:%s@%s>;tag=%s" % (names.get("from", "From"), self.user, self.user, self.domain, self.tag),
                 "%s: %s" % (names.get("to", "To"), to),
                 "%s: %s" % (names.get("call-id", "Call-ID"), self.call_id),
                 "CSeq: %d %s" % (self.cseq, cseq_method or method), "Max-Forwards: 70"] + list(extra)
        lines.append("%s: 0" % names.get("content-length", "Content-Length"))
        self.last = lines
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    def ask(self, data):
        self.sock.sendto(data, ("127.0.0.1", PORT))
        got, _ = self.sock.recvfrom(65535)
        return parse(got)

    def check_echo(self, headers):
        sent = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in self.last[1:]}
        vias = [l.split(":", 1)[1].strip() for l in self.last[1:] if l.split(":", 1)[0].strip().lower() in ("via", "v")]
        assert values(headers, "via") == vias, "all Via headers are copied, in order"
        assert values(headers, "call-id") == [self.call_id]
        assert values(headers, "cseq") == ["%d %s" % (self.cseq, self.last[0].split()[0])]
        assert values(headers, "from") == [sent.get("from") or sent.get("f")]
        to = values(headers, "to")
        assert len(to) == 1 and to[0].startswith(sent.get("to") or sent.get("t")) and ";tag=" in to[0]
        assert headers[-1] == ("content-length", "0")

    def register(self, contacts, expires=None, password=None, user=None, qop=True, compact=False, to_user=None, nonce=None):
        extra = ["Contact: " + c for c in contacts] + (["Expires: %d" % expires] if expires is not None else [])
        if nonce is None:
            code, _, headers = self.ask(self.request("REGISTER", extra, compact, to_user))
            assert code == 401, "a REGISTER without credentials is challenged"
            self.check_echo(headers)
            (www,) = values(headers, "www-authenticate")
            m = re.fullmatch(r'Digest realm="([^"]*)", nonce="([^"]+)", algorithm=MD5, qop="auth"', www)
            assert m and m.group(1) == DOMAIN, www
            nonce = m.group(2)
        user = user or self.user
        ha1 = md5("%s:%s:%s" % (user, DOMAIN, password if password is not None else USERS.get(user, "?")))
        uri = "sip:" + self.domain
        ha2 = md5("REGISTER:" + uri)
        cnonce, nc = "%x" % RNG.randrange(1 << 32), "00000001"
        if qop:
            resp = md5(":".join([ha1, nonce, nc, cnonce, "auth", ha2]))
            auth = 'Digest username="%s", realm="%s", nonce="%s", uri="%s", response="%s", algorithm=MD5, cnonce="%s", qop=auth, nc=%s' % (
                user, DOMAIN, nonce, uri, resp, cnonce, nc)
        else:
            resp = md5(":".join([ha1, nonce, ha2]))
            auth = 'Digest username="%s", realm="%s", nonce="%s", uri="%s", response="%s"' % (user, DOMAIN, nonce, uri, resp)
        code, _, headers = self.ask(self.request("REGISTER", extra + ["Authorization: " + auth], compact, to_user))
        self.check_echo(headers)
        return code, headers, nonce


def qfmt(q):
    s = ("%.3f" % q).rstrip("0")
    return s + "0" if s.endswith(".") else s


class Model:
    def __init__(self):
        self.b, self.seq = {}, 0

    def apply(self, aor, contacts, default):
        cur = self.b.setdefault(aor, [])
        if contacts == ["*"]:
            cur.clear()
            return self.view(aor)
        for uri, expires, q in contacts:
            e = default if expires is None else expires
            old = [x for x in cur if x[0] == uri]
            if e == 0:
                for x in old:
                    cur.remove(x)
            elif old:
                old[0][1], old[0][2] = e, (1.0 if q is None else q)
            else:
                self.seq += 1
                cur.append([uri, e, 1.0 if q is None else q, self.seq])
        return self.view(aor)

    def view(self, aor):
        return ["<%s>;expires=%d;q=%s" % (u, e, qfmt(q)) for u, e, q, _ in sorted(self.b.get(aor, []), key=lambda x: (-x[2], x[3]))]


MODEL = Model()


def contact_text(uri, expires, q):
    s = RNG.choice(["<%s>" % uri, '"Desk" <%s>' % uri])
    if expires is not None:
        s += ";expires=%d" % expires
    if q is not None:
        s += ";q=%s" % q
    return s


def test_register_bindings():
    rng = random.Random(1)
    ua = UA("alice")
    aor = "alice@" + DOMAIN
    uris = ["sip:alice@10.0.0.%d:%d" % (rng.randrange(2, 250), rng.choice([5060, 5062, 6000])) for _ in range(6)]
    for i in range(14):
        picks = rng.sample(uris, rng.randrange(1, 4))
        cs = [(u, rng.choice([None, 0, 60, 600, 7200]), rng.choice([None, 0.5, 1.0, 0.125, 0.9])) for u in picks]
        default = rng.choice([None, 300, 0])
        texts = [contact_text(*c) for c in cs]
        if rng.random() < 0.5 and len(texts) > 1:
            texts = [", ".join(texts)]  # several contacts in one header
        code, headers, _ = ua.register(texts, default, compact=rng.random() < 0.3, qop=rng.random() < 0.8)
        assert code == 200
        assert values(headers, "contact") == MODEL.apply(aor, cs, 3600 if default is None else default), f"round {i}"
    code, headers, _ = ua.register(["*"], 0)
    assert code == 200 and values(headers, "contact") == MODEL.apply(aor, ["*"], 0)
    code, headers, _ = ua.register(["*"], 30)
    assert code == 400, "the wildcard needs Expires: 0"
    code, headers, _ = ua.register(["*", "<sip:alice@10.1.1.1>"], 0)
    assert code == 400


def test_authentication_outcomes():
    ua = UA("bob")
    code, _, nonce = ua.register(["<sip:bob@10.9.9.9>"], 60, password="wrong")
    assert code == 401, "a wrong password is challenged again"
    code, headers, _ = ua.register(["<sip:bob@10.9.9.9>"], 60, nonce="deadbeef")
    assert code == 401, "a nonce the registrar never issued is challenged again"
    code, headers, _ = ua.register(["<sip:bob@10.9.9.9>"], 60, nonce=nonce)  # an issued nonce can be reused
    assert code == 200 and values(headers, "contact") == MODEL.apply("bob@" + DOMAIN, [("sip:bob@10.9.9.9", None, None)], 60)
    code, _, _ = ua.register(["<sip:bob@10.9.9.8>"], 60, user="alice", to_user="bob")
    assert code == 403, "an account may only register its own address"
    code, _, _ = ua.register(["<sip:carol.x@10.0.0.3>"], 60, user="carol.x", to_user="carol.x", qop=False)
    assert code == 200
    MODEL.apply("carol.x@" + DOMAIN, [("sip:carol.x@10.0.0.3", None, None)], 60)
    other = UA("alice", domain="elsewhere.test")
    code, _, headers = other.ask(other.request("REGISTER", ["Contact: <sip:alice@1.2.3.4>"]))
    assert code == 404


def test_other_methods_and_errors():
    ua = UA("carol.x")
    code, line, headers = ua.ask(ua.request("OPTIONS", []))
    assert code == 200 and values(headers, "allow") == ["REGISTER, OPTIONS"]
    ua.check_echo(headers)
    code, line, headers = ua.ask(ua.request("INVITE", []))
    assert code == 405 and line == "SIP/2.0 405 Method Not Allowed" and values(headers, "allow") == ["REGISTER, OPTIONS"]
    code, line, headers = ua.ask(ua.request("REGISTER", [], cseq_method="INVITE"))
    assert code == 400 and line == "SIP/2.0 400 Bad Request"
    for bad in (b"garbage\r\n\r\n", b"REGISTER sip:x SIP/2.0\r\nVia: SIP/2.0/UDP a\r\n\r\n"):
        ua.sock.sendto(bad, ("127.0.0.1", PORT))
        code, _, headers = ua.ask(ua.request("OPTIONS", []))
        assert code == 200 and values(headers, "call-id") == [ua.call_id], "malformed requests get no answer"


def test_bindings_are_per_address():
    for user in ("alice", "bob", "carol.x"):
        ua = UA(user)
        code, headers, _ = ua.register([], None)  # no Contact: a query of the current bindings
        assert code == 200 and values(headers, "contact") == MODEL.view(user + "@" + DOMAIN)


def test_folded_and_mixed_case_headers():
    ua = UA("alice")
    raw = ua.request("OPTIONS", ["x-Custom-Header: one,", "  two"]).decode()
    raw = raw.replace("Call-ID:", "cALL-iD:").replace("CSeq:", "cseq:")
    code, _, headers = ua.ask(raw.encode())
    assert code == 200 and values(headers, "call-id") == [ua.call_id]
    folded = ["<sip:alice@10.7.7.7>;expires=90,\r\n\t<sip:alice@10.7.7.8>;q=0.5;expires=45"]  # a folded Contact header
    code, headers, _ = ua.register(folded, None)
    assert code == 200
    assert values(headers, "contact") == MODEL.apply("alice@" + DOMAIN, [("sip:alice@10.7.7.7", 90, None), ("sip:alice@10.7.7.8", 45, 0.5)], 3600)
