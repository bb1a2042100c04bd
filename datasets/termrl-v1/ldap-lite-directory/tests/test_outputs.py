"""An LDAP client (BER encoder/decoder) written here queries the server; the directory and the filters are generated per run."""
import base64
import os
import random
import signal
import socket
import subprocess
import tempfile
import time

import pytest

TIMEOUT = 120  # hang guard for socket reads only
RNG = random.Random(389)
DIR = tempfile.mkdtemp(prefix="ldap")
PROTECTED, HIDDEN = {"mail", "telephonenumber"}, {"userpassword"}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()

# ---------------- the directory ----------------
ROOT = "dc=corp%d,dc=test" % RNG.randrange(100, 999)
FIRST = ["Ana", "Bo", "Chen", "Dara", "Émile", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena", "Mo", "Nia", "Oskar"]
LAST = ["Nakamura", "Okafor", "Schmidt", "Silva", "Novak", "Haddad", "Berg", "Ito", "Moreau", "Kowalski"]


def make_entries():
    entries = [(ROOT, [("objectClass", ["top", "domain"]), ("dc", [ROOT.split(",")[0][3:]])])]
    ous = ["ou=People," + ROOT, "ou=Eng,ou=People," + ROOT, "ou=Groups," + ROOT, "ou=Robots," + ROOT]
    for ou in ous:
        entries.append((ou, [("objectClass", ["top", "organizationalUnit"]), ("ou", [ou.split(",")[0][3:]])]))
    people = []
    for i in range(45):
        given, sn = RNG.choice(FIRST), RNG.choice(LAST)
        uid = f"{given.lower()[:3]}{sn.lower()[:4]}{i}"
        parent = RNG.choice(ous[:2] + ous[3:])
        dn = f"uid={uid},{parent}"
        attrs = [("objectClass", ["top", "person", "inetOrgPerson"] + (["posixAccount"] if i % 3 else [])),
                 ("uid", [uid]), ("cn", [f"{given} {sn}"] + ([f"{given[0]}. {sn}"] if i % 4 == 0 else [])),
                 ("sn", [sn]), ("givenName", [given]), ("uidNumber", [str(RNG.choice([RNG.randrange(900, 1100), RNG.randrange(10000, 20000)]))]),
                 ("mail", [f"{uid}@corp.test"]), ("userPassword", [f"pw-{uid}-{RNG.randrange(10**6)}"])]
        if i % 2:
            attrs.append(("telephoneNumber", ["+1 555 %04d" % RNG.randrange(10000)]))
        if i % 5 == 0:
            attrs.append(("description", ["Works on " + " and ".join(RNG.sample(["kernels", "billing", "search", "ops", "the website", "ünïcode"], 3)) + ". " + "x" * RNG.randrange(40, 120)]))
        people.append((dn, attrs))
    entries += people
    for g in ("admins", "eng", "Ops"):
        members = RNG.sample([dn for dn, _ in people], 5)
        entries.append((f"cn={g},ou=Groups," + ROOT, [("objectClass", ["top", "groupOfNames"]), ("cn", [g]), ("member", members)]))
    return entries


ENTRIES = make_entries()


def ldif_text():
    out = ["# generated directory", "version: 1", ""]
    for dn, attrs in ENTRIES:
        lines = [f"dn: {dn}"]
        for name, vals in attrs:
            for v in vals:
                if not v.isascii() or RNG.random() < 0.08:
                    lines.append(f"{name}:: {base64.b64encode(v.encode()).decode()}")
                else:
                    lines.append(f"{name}: {v}")
        folded = []
        for line in lines:
            while len(line) > 60 and RNG.random() < 0.7:  # LDIF line folding
                cut = RNG.randrange(20, 60)
                folded.append(line[:cut])
                line = " " + line[cut:]
            folded.append(line)
        out += folded + [""]
    return "\n".join(out) + "\n"


def ndn(dn):
    return ",".join(p.split("=", 1)[0].strip().lower() + "=" + p.split("=", 1)[1].strip().lower() for p in dn.split(",") if p.strip())


@pytest.fixture(scope="module", autouse=True)
def server():
    with open(f"{DIR}/directory.ldif", "w", encoding="utf-8") as f:
        f.write(ldif_text())
    proc = subprocess.Popen(["bash", "/app/ldap/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, LDAP_PORT=str(PORT), LDAP_LDIF=f"{DIR}/directory.ldif"),
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


# ---------------- BER ----------------
LONG = [False]


def tlv(tag, val):
    n = len(val)
    if n < 128 and not (LONG[0] and RNG.random() < 0.5):
        return bytes([tag, n]) + val
    b = n.to_bytes(max(1, (n.bit_length() + 7) // 8) + (1 if LONG[0] and RNG.random() < 0.3 else 0), "big")
    return bytes([tag, 0x80 | len(b)]) + b + val


def ber_int(tag, v):
    return tlv(tag, v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big", signed=True))


def s(v):
    return tlv(0x04, v.encode() if isinstance(v, str) else v)


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


# filters as tuples: ("and", [..]) ("or", [..]) ("not", f) ("eq"|"ge"|"le"|"approx", attr, value) ("present", attr)
# ("sub", attr, initial|None, [any...], final|None)
def enc_filter(f):
    k = f[0]
    if k in ("and", "or"):
        return tlv(0xA0 if k == "and" else 0xA1, b"".join(enc_filter(c) for c in f[1]))
    if k == "not":
        return tlv(0xA2, enc_filter(f[1]))
    if k == "present":
        return tlv(0x87, f[1].encode())
    if k in ("eq", "ge", "le", "approx"):
        return tlv({"eq": 0xA3, "ge": 0xA5, "le": 0xA6, "approx": 0xA8}[k], s(f[1]) + s(f[2]))
    subs = (tlv(0x80, f[2].encode()) if f[2] is not None else b"") + b"".join(tlv(0x81, a.encode()) for a in f[3])
    subs += tlv(0x82, f[4].encode()) if f[4] is not None else b""
    return tlv(0xA4, s(f[1]) + tlv(0x30, subs))


def vals_of(attrs, name, bound):
    a = name.lower()
    if a in HIDDEN or (a in PROTECTED and not bound):
        return None
    for n, v in attrs:
        if n.lower() == a:
            return v
    return None


def cmp(x, y):
    try:
        a, b = int(x), int(y)
    except ValueError:
        a, b = x.lower(), y.lower()
    return (a > b) - (a < b)


def sub_ok(v, initial, anys, final):
    v = v.lower()
    pos = 0
    if initial is not None:
        if not v.startswith(initial.lower()):
            return False
        pos = len(initial)
    for a in anys:
        j = v.find(a.lower(), pos)
        if j < 0:
            return False
        pos = j + len(a)
    if final is not None:
        return len(v) - len(final) >= pos and v.endswith(final.lower())
    return True


def model_match(f, attrs, bound):
    k = f[0]
    if k == "and":
        return all(model_match(c, attrs, bound) for c in f[1])
    if k == "or":
        return any(model_match(c, attrs, bound) for c in f[1])
    if k == "not":
        return not model_match(f[1], attrs, bound)
    if k == "present":
        return vals_of(attrs, f[1], bound) is not None
    vals = vals_of(attrs, f[1], bound) or []
    if k in ("eq", "approx"):
        return any(v.lower() == f[2].lower() for v in vals)
    if k == "ge":
        return any(cmp(v, f[2]) >= 0 for v in vals)
    if k == "le":
        return any(cmp(v, f[2]) <= 0 for v in vals)
    return any(sub_ok(v, f[2], f[3], f[4]) for v in vals)


def in_scope(dn, base, scope):
    d, b = ndn(dn), ndn(base)
    if scope == 0:
        return d == b
    under = (not b) or d.endswith("," + b)
    if scope == 1:
        rest = d[:len(d) - len(b) - 1] if b else d
        return under and d != b and "," not in rest
    return d == b or under


def expected_search(base, scope, f, attrs_wanted=(), types_only=False, size_limit=0, bound=False):
    if base and not any(ndn(dn) == ndn(base) for dn, _ in ENTRIES):
        return [], 32
    out = []
    wanted = [a.lower() for a in attrs_wanted]
    for dn, attrs in ENTRIES:
        if not in_scope(dn, base, scope) or not model_match(f, attrs, bound):
            continue
        if size_limit and len(out) >= size_limit:
            return out, 4
        shown = []
        for n, v in attrs:
            low = n.lower()
            if low in HIDDEN or (low in PROTECTED and not bound) or wanted == ["1.1"]:
                continue
            if wanted and "*" not in wanted and low not in wanted:
                continue
            shown.append((n, [] if types_only else list(v)))
        out.append((dn, shown))
    return out, 0


class Conn:
    def __init__(self):
        self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
        self.buf = b""
        self.mid = RNG.randrange(1, 1000)

    def send_ops(self, ops):
        msgs, ids = b"", []
        for op in ops:
            self.mid += RNG.randrange(1, 300)
            ids.append(self.mid)
            msgs += tlv(0x30, ber_int(0x02, self.mid) + op)
        self.sock.sendall(msgs)
        return ids

    def read_msg(self):
        while True:
            if len(self.buf) >= 2:
                try:
                    tag, val, end = read_tlv(self.buf, 0)
                    if end <= len(self.buf):
                        self.buf = self.buf[end:]
                        parts = children(val)
                        return int.from_bytes(parts[0][1], "big", signed=True), parts[1]
                except IndexError:
                    pass
            d = self.sock.recv(65536)
            assert d, "connection closed"
            self.buf += d


def bind_op(dn, pw, version=3):
    return tlv(0x60, ber_int(0x02, version) + s(dn) + tlv(0x80, pw.encode()))


def search_op(base, scope, f, attrs=(), types_only=False, size_limit=0):
    return tlv(0x63, s(base) + ber_int(0x0A, scope) + ber_int(0x0A, 0) + ber_int(0x02, size_limit) + ber_int(0x02, 0)
               + tlv(0x01, b"\xff" if types_only else b"\x00") + enc_filter(f) + tlv(0x30, b"".join(s(a) for a in attrs)))


def result_code(op):
    parts = children(op[1])
    return int.from_bytes(parts[0][1], "big")


def read_search(c, mid):
    entries = []
    while True:
        got_mid, op = c.read_msg()
        assert got_mid == mid, f"messageID {got_mid}, expected {mid}"
        if op[0] == 0x64:
            dn, attrs = children(op[1])
            entries.append((dn[1].decode(), [(children(a)[0][1].decode(), [v.decode() for _, v in children(children(a)[1][1])])
                                              for _, a in children(attrs[1])]))
        else:
            assert op[0] == 0x65, f"unexpected protocolOp {op[0]:#x}"
            return entries, result_code(op)


def run_search(c, *args, **kw):
    (mid,) = c.send_ops([search_op(*args, **kw)])
    return read_search(c, mid)


def bind(c, dn, pw, version=3):
    (mid,) = c.send_ops([bind_op(dn, pw, version)])
    got_mid, op = c.read_msg()
    assert got_mid == mid and op[0] == 0x61
    return result_code(op)


def person(i):
    people = [(dn, a) for dn, a in ENTRIES if dn.startswith("uid=")]
    return people[i]


def password(attrs):
    return dict(attrs)["userPassword"][0]


ANY = ("present", "objectClass")


def test_bind_rules():
    c = Conn()
    dn, attrs = person(3)
    assert bind(c, "", "") == 0, "anonymous bind"
    assert bind(c, dn, password(attrs)) == 0
    messy = " , ".join(p.split("=")[0].upper() + " = " + p.split("=")[1].swapcase() for p in dn.split(","))
    assert bind(c, messy, password(attrs)) == 0, "DNs compare without case and spaces"
    assert bind(c, dn, password(attrs) + "x") == 49
    assert bind(c, dn, "") == 49, "a DN with an empty password is refused"
    assert bind(c, "uid=nobody," + ROOT, "x") == 49
    assert bind(c, dn, password(attrs), version=2) == 2


def test_scopes_and_bases():
    c = Conn()
    bases = ["", ROOT, "ou=People," + ROOT, "OU=people , " + ROOT.upper(), "ou=Eng,ou=People," + ROOT, person(7)[0],
             "ou=Groups," + ROOT]
    for base in bases:
        for scope in (0, 1, 2):
            got = run_search(c, base, scope, ANY)
            assert got == expected_search(base, scope, ANY), f"base {base!r} scope {scope}"
    assert run_search(c, "ou=Nowhere," + ROOT, 2, ANY) == ([], 32)


def random_filter(depth=0):
    r = RNG.random()
    if depth < 3 and r < 0.35:
        kind = RNG.choice(["and", "or", "not"])
        if kind == "not":
            return ("not", random_filter(depth + 1))
        return (kind, [random_filter(depth + 1) for _ in range(RNG.randrange(1, 4))])
    attr = RNG.choice(["cn", "CN", "sn", "givenName", "uid", "uidNumber", "objectClass", "mail", "telephoneNumber",
                       "userPassword", "description", "member", "ou"])
    kind = RNG.choice(["eq", "eq", "ge", "le", "present", "sub", "sub", "approx"])
    sample = [v for _, a in ENTRIES for n, vs in a if n.lower() == attr.lower() for v in vs] or ["x"]
    v = RNG.choice(sample)
    if kind == "present":
        return ("present", attr)
    if kind in ("ge", "le"):
        return (kind, attr, RNG.choice([v, str(RNG.randrange(800, 21000)), "M"]))
    if kind == "sub":
        low = v.swapcase() if RNG.random() < 0.3 else v
        a = RNG.randrange(0, max(1, len(low) // 2))
        b = RNG.randrange(a, len(low) + 1)
        initial = low[:a] if RNG.random() < 0.5 and a else None
        final = low[b:] if RNG.random() < 0.5 and b < len(low) else None
        mid = [low[a:b]] if RNG.random() < 0.7 and b > a else []
        if initial is None and final is None and not mid:
            mid = [low[:2] or "a"]
        return ("sub", attr, initial, mid, final)
    return (kind, attr, v.upper() if RNG.random() < 0.3 else v)


def test_random_filters_anonymous_and_bound():
    anon, user = Conn(), Conn()
    dn, attrs = person(11)
    assert bind(user, dn, password(attrs)) == 0
    for i in range(90):
        f = random_filter()
        base = RNG.choice(["", ROOT, "ou=People," + ROOT])
        for c, bound in ((anon, False), (user, True)):
            got = run_search(c, base, 2, f)
            assert got == expected_search(base, 2, f, bound=bound), f"filter {f} ({'bound' if bound else 'anonymous'})"


def test_failed_bind_drops_to_anonymous():
    c = Conn()
    dn, attrs = person(2)
    f = ("present", "mail")
    assert bind(c, dn, password(attrs)) == 0
    assert len(run_search(c, ROOT, 2, f)[0]) == 45
    assert bind(c, dn, "wrong") == 49
    assert run_search(c, ROOT, 2, f) == ([], 0), "after a failed bind the connection is anonymous"


def test_attribute_selection_types_only_and_size_limit():
    c = Conn()
    dn, attrs = person(5)
    assert bind(c, dn, password(attrs)) == 0
    f = ("or", [("sub", "cn", None, ["a"], None), ("present", "member")])
    for wanted in ([], ["*"], ["1.1"], ["CN", "mail", "userPassword", "nosuch"], ["objectclass"]):
        for types_only in (False, True):
            got = run_search(c, ROOT, 2, f, attrs=wanted, types_only=types_only)
            assert got == expected_search(ROOT, 2, f, wanted, types_only, bound=True), f"attributes {wanted}, typesOnly {types_only}"
    total = len(expected_search(ROOT, 2, ANY)[0])
    for limit in (1, 3, total - 1, total, total + 5):
        got = run_search(c, ROOT, 2, ANY, size_limit=limit)
        assert got == expected_search(ROOT, 2, ANY, size_limit=limit, bound=True), f"sizeLimit {limit}"


def test_pipelining_long_lengths_and_unbind():
    c = Conn()
    LONG[0] = True
    try:
        dn, attrs = person(9)
        fs = [random_filter() for _ in range(6)]
        ops = [bind_op(dn, password(attrs))] + [search_op(ROOT, 2, f) for f in fs]
        ids = c.send_ops(ops)
    finally:
        LONG[0] = False
    got_mid, op = c.read_msg()
    assert got_mid == ids[0] and op[0] == 0x61 and result_code(op) == 0
    for mid, f in zip(ids[1:], fs):
        assert read_search(c, mid) == expected_search(ROOT, 2, f, bound=True), f"pipelined filter {f}"
    c.sock.sendall(tlv(0x30, ber_int(0x02, 99) + b"\x42\x00"))  # UnbindRequest
    assert c.sock.recv(100) == b"", "the server closes the connection after an UnbindRequest"
    d = Conn()
    d.sock.sendall(b"\x30\x85\x01\x02\x03\x04\x05")  # a length of 5 length bytes: malformed BER
    try:
        assert d.sock.recv(100) == b""
    except ConnectionResetError:
        pass


def test_substring_parts_do_not_overlap():
    c = Conn()
    seen = 0
    for name in sorted(set(LAST)):
        low = name.lower()
        filters = [("sub", "sn", name[:2], [name[1:3]], None),  # "any" must start after the initial part
                   ("sub", "sn", None, [low[-3:-1]], low[-2:]),  # the final part must start after the "any" part
                   ("sub", "sn", None, [low[2:4], low[0:2]], None),  # "any" parts in order
                   ("sub", "sn", None, [low[0:2], low[2:4]], None),
                   ("sub", "SN", name[:3].upper(), [], name[3:].upper()),
                   ("sub", "sn", low, [], low)]
        for f in filters:
            want = expected_search(ROOT, 2, f)
            seen += len(want[0])
            assert run_search(c, ROOT, 2, f) == want, f"substring filter {f}"
    assert seen > 0
