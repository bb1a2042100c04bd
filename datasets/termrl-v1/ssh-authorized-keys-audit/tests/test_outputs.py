"""/app/keyaudit.py on root file system copies generated here: fresh keys of every type and size, option
lists with quoting, expiry times around the given "now", root restrictions, revoked and shared keys,
and malformed lines."""
import base64
import calendar
import hashlib
import json
import os
import random
import struct
import subprocess
import sys

TOOL = "/app/keyaudit.py"
RNG = random.Random(os.urandom(8))
NOW = 1796000000 + RNG.randrange(0, 10**6)


def sstr(b):
    return struct.pack(">I", len(b)) + b


def mpint(n):
    b = n.to_bytes(n.bit_length() // 8 + 1, "big")
    return sstr(b)


def rsa(bits):
    n = RNG.getrandbits(bits) | (1 << (bits - 1)) | 1
    return "ssh-rsa", bits, sstr(b"ssh-rsa") + mpint(65537) + mpint(n)


def dss():
    p = RNG.getrandbits(1024) | (1 << 1023) | 1
    q = RNG.getrandbits(160) | (1 << 159) | 1
    return "ssh-dss", 1024, sstr(b"ssh-dss") + mpint(p) + mpint(q) + mpint(RNG.getrandbits(1020)) + mpint(RNG.getrandbits(1020))


def ed25519():
    return "ssh-ed25519", 256, sstr(b"ssh-ed25519") + sstr(RNG.randbytes(32))


def ecdsa(bits):
    curve = f"nistp{bits}"
    size = (bits + 7) // 8
    name = f"ecdsa-sha2-{curve}"
    return name, bits, sstr(name.encode()) + sstr(curve.encode()) + sstr(b"\x04" + RNG.randbytes(2 * size))


def any_key():
    return RNG.choice([lambda: rsa(RNG.choice([3072, 4096])), ed25519, lambda: ecdsa(RNG.choice([256, 384, 521]))])()


def fp(blob):
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def stamp(t, digits):
    g = __import__("time").gmtime(t)
    full = f"{g.tm_year:04d}{g.tm_mon:02d}{g.tm_mday:02d}{g.tm_hour:02d}{g.tm_min:02d}{g.tm_sec:02d}"
    return full[:digits]


def comment():
    return RNG.choice(["", "alice@laptop", "deploy key 2026", "ci@runner-3", "backup (old)"])


class Root:
    def __init__(self, path):
        self.path = path
        self.files = {}
        self.expected = []
        self.revoked = []

    def add(self, user, line, key=None, findings=(), malformed=False):
        lines = self.files.setdefault(user, [])
        for _ in range(RNG.randint(0, 2)):
            lines.append(RNG.choice(["", "# managed by hand", "   ", "#ssh-rsa AAAA disabled"]))
        lines.append(line)
        entry = {"user": user, "line": len(lines), "type": None, "bits": None, "fingerprint": None,
                 "findings": ["malformed"] if malformed else sorted(findings)}
        if not malformed:
            entry.update(type=key[0], bits=key[1], fingerprint=fp(key[2]))
        self.expected.append(entry)
        return entry

    def key_line(self, key, options=""):
        b64 = base64.b64encode(key[2]).decode()
        return " ".join(x for x in [options, key[0], b64, comment()] if x)

    def write(self):
        for user, lines in self.files.items():
            d = os.path.join(self.path, "root" if user == "root" else f"home/{user}", ".ssh")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "authorized_keys"), "w") as fh:
                fh.write("\n".join(lines) + "\n")
        if self.revoked:
            os.makedirs(os.path.join(self.path, "etc/ssh"), exist_ok=True)
            with open(os.path.join(self.path, "etc/ssh/revoked_keys"), "w") as fh:
                fh.write("# revoked after the 2026 laptop theft\n" + "\n".join(self.revoked) + "\n")

    def answer(self):
        owners = {}
        for e in self.expected:
            if e["fingerprint"]:
                owners.setdefault(e["fingerprint"], set()).add(e["user"])
        out = []
        for e in self.expected:
            e = dict(e)
            if e["fingerprint"] and len(owners[e["fingerprint"]]) > 1:
                e["findings"] = sorted(e["findings"] + ["shared"])
            out.append(e)
        return sorted(out, key=lambda e: (e["user"], e["line"]))


def audit(root):
    root.write()
    r = subprocess.run([sys.executable, TOOL, str(root.path), "--now", str(NOW)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_key_types_sizes_and_fingerprints(tmp_path):
    root = Root(tmp_path)
    for bits in (1024, 2048, 3071, 3072, 4096):
        k = rsa(bits)
        root.add("alice", root.key_line(k), k, ["weak-rsa"] if bits < 3072 else [])
    k = dss()
    root.add("bob", root.key_line(k), k, ["dsa"])
    for bits in (256, 384, 521):
        k = ecdsa(bits)
        root.add("bob", root.key_line(k), k)
    k = ed25519()
    root.add("carol", root.key_line(k), k)
    assert audit(root) == root.answer()


def test_option_lists_and_expiry(tmp_path):
    root = Root(tmp_path)
    cases = [
        ('from="10.0.0.0/8,192.168.1.*",no-pty', []),
        ('command="/usr/bin/rsync --server -e.Lsf . /srv/backup, --delete",no-port-forwarding', []),
        ('command="echo \\"hello, world\\" ; logger x",restrict', []),
        ('environment="NAME=a b c",no-agent-forwarding', []),
        (f'expiry-time="{stamp(NOW - 3600, 12)}"', ["expired"]),
        (f'Expiry-Time="{stamp(NOW, 14)}"', ["expired"]),
        (f'expiry-time="{stamp(NOW + 1, 14)}"', []),
        (f'no-pty,EXPIRY-TIME="{stamp(NOW - 86400 * 2, 8)}",from="*.example.com"', ["expired"]),
        (f'expiry-time="{stamp(NOW + 86400 * 40, 8)}"', []),
    ]
    for opts, findings in cases:
        k = any_key()
        root.add(RNG.choice(["deploy", "svc"]), root.key_line(k, opts), k, findings)
    assert audit(root) == root.answer()


def test_root_needs_a_restriction(tmp_path):
    root = Root(tmp_path)
    for opts, unrestricted in [("", True), ("no-pty,no-X11-forwarding", True), ('from="10.1.2.3"', False),
                               ('command="/usr/local/sbin/backup"', False), ("restrict", False),
                               ('FROM="10.9.0.0/16"', False)]:
        k = any_key()
        root.add("root", root.key_line(k, opts), k, ["root-unrestricted"] if unrestricted else [])
    k = any_key()
    root.add("admin", root.key_line(k), k)
    assert audit(root) == root.answer()


def test_revoked_and_shared_keys(tmp_path):
    root = Root(tmp_path)
    stolen = [any_key() for _ in range(2)]
    root.revoked = [fp(k[2]) for k in stolen] + [fp(any_key()[2])]
    root.add("alice", root.key_line(stolen[0]), stolen[0], ["revoked"])
    root.add("bob", root.key_line(stolen[1], 'from="10.0.0.1"'), stolen[1], ["revoked"])
    team = ed25519()
    for user in ("carol", "dave", "erin"):
        root.add(user, root.key_line(team), team)
    twice = any_key()
    root.add("frank", root.key_line(twice), twice)
    root.add("frank", root.key_line(twice, "no-pty"), twice)      # same user twice: not shared
    k = rsa(2048)
    root.revoked.append(fp(k[2]) + "   # old CI key")
    root.add("ci", root.key_line(k), k, ["revoked", "weak-rsa"])
    root.add("root", root.key_line(k, 'command="/bin/true"'), k, ["revoked", "weak-rsa"])
    assert audit(root) == root.answer()


def test_malformed_lines(tmp_path):
    root = Root(tmp_path)
    good = any_key()
    root.add("mallory", root.key_line(good), good)
    b64 = base64.b64encode(ed25519()[2]).decode()
    rsa_b64 = base64.b64encode(rsa(4096)[2]).decode()
    bad_lines = [
        f"ssh-ed25519 {b64[:-8]}!!!!!!!! x",             # not base64
        f"ssh-ed25519 {rsa_b64} mismatch",               # the blob is an RSA key
        f"ssh-foo {b64} unknown-type",
        f'command="echo hi,no-pty ssh-ed25519 {b64}',     # unterminated quote
        f"ssh-ed25519 {base64.b64encode(ed25519()[2][:30]).decode()} truncated",
        f'expiry-time="2026-12-31" ssh-ed25519 {b64}',    # bad expiry format
        "ssh-rsa",
    ]
    for line in bad_lines:
        root.add("mallory", line, malformed=True)
    assert audit(root) == root.answer()


def test_mixed_system(tmp_path):
    root = Root(tmp_path)
    pool = [any_key() for _ in range(4)]
    root.revoked = [fp(pool[0][2])]
    for user in ["root", "alice", "bob", "svc-backup", "zoe"]:
        for _ in range(RNG.randint(1, 4)):
            roll = RNG.random()
            if roll < 0.3:
                k = RNG.choice(pool)
            elif roll < 0.45:
                k = rsa(RNG.choice([1024, 2048]))
            elif roll < 0.5:
                k = dss()
            else:
                k = any_key()
            opts = RNG.choice(["", "no-pty", 'from="192.0.2.0/24"', f'expiry-time="{stamp(NOW + RNG.randint(-10**6, 10**6), 12)}"'])
            f = []
            if k[0] == "ssh-dss":
                f.append("dsa")
            if k[0] == "ssh-rsa" and k[1] < 3072:
                f.append("weak-rsa")
            if k is pool[0]:
                f.append("revoked")
            if opts.startswith("expiry"):
                t = calendar.timegm(__import__("time").strptime(opts.split('"')[1], "%Y%m%d%H%M"))
                if t <= NOW:
                    f.append("expired")
            if user == "root" and "from=" not in opts:
                f.append("root-unrestricted")
            root.add(user, root.key_line(k, opts), k, f)
    assert audit(root) == root.answer()
