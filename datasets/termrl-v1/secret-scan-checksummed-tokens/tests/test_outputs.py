"""/app/secretscan.py on trees generated here: real and look-alike secrets of every rule in many file
syntaxes, with suppressions, ignore patterns, binary files, gzip members, CRLF files and symlinks."""
import gzip
import json
import math
import os
import random
import subprocess
import sys
import zlib
from collections import Counter

RNG = random.Random(os.urandom(8))
TOOL = "/app/secretscan.py"
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
ALNUM = B62
FILLER = ["the", "service", "reads", "config", "from", "disk", "and", "retries", "on", "failure", "see",
          "docs", "for", "details", "timeout", "port", "host", "cache", "queue", "worker", "deploy"]


def b62(n):
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = B62[r] + out
    return out.rjust(6, "0")


def rand(n, alphabet=ALNUM):
    return "".join(RNG.choice(alphabet) for _ in range(n))


def entropy(s):
    c = Counter(s)
    return -sum(v / len(s) * math.log2(v / len(s)) for v in c.values())


def gh_token(valid=True):
    body = rand(30)
    check = b62(zlib.crc32(body.encode()))
    if not valid:
        while True:
            bad = rand(6)
            if bad != check:
                check = bad
                break
    return RNG.choice(["ghp_", "gho_", "ghs_"]) + body + check


def aws_key(example=False):
    k = RNG.choice(["AKIA", "ASIA"]) + rand(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    return k[:13] + "EXAMPLE" if example else k


def high_value():
    while True:
        v = rand(RNG.randint(16, 40), ALNUM + "+/-_!@%")
        if entropy(v) >= 3.9:
            return v


def low_value():
    while True:
        base = rand(RNG.randint(2, 4), "abcdefghijklmnopqrstuvwxyz")
        v = (base * 12)[:RNG.randint(12, 24)]
        if entropy(v) <= 2.5:
            return v


def filler():
    return " ".join(RNG.choice(FILLER) for _ in range(RNG.randint(3, 9)))


class Tree:
    def __init__(self, root):
        self.root = root
        self.expected = []

    def write(self, rel, lines, crlf=False, gz=False, expect=()):
        """lines: list of str; expect: list of (line_index0, rule, secret)."""
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        text = ("\r\n" if crlf else "\n").join(lines) + ("\r\n" if crlf else "\n")
        data = text.encode()
        if gz:
            data = gzip.compress(data)
        with open(path, "wb") as fh:
            fh.write(data)
        for idx, rule, secret in expect:
            self.expected.append({"path": rel, "line": idx + 1, "rule": rule, "secret": secret})

    def doc(self, rel, planted, crlf=False, gz=False, keep=True):
        """planted: list of (line, [(rule, secret), ...]) placed among filler lines."""
        lines, expect = [], []
        for line, finds in planted:
            for _ in range(RNG.randint(0, 3)):
                lines.append("# " + filler())
            if keep:
                expect += [(len(lines), rule, secret) for rule, secret in finds]
            lines.append(line)
        lines.append("# " + filler())
        self.write(rel, lines, crlf=crlf, gz=gz, expect=expect)

    def answer(self):
        return sorted(self.expected, key=lambda f: (f["path"], f["line"], f["rule"], f["secret"]))


def scan(root):
    r = subprocess.run([sys.executable, TOOL, str(root)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert isinstance(out, list)
    return out


def assign(name, value, style=None):
    style = style or RNG.choice(["env", "yaml", "json", "py", "ini", "export"])
    return {
        "env": f"{name}={value}",
        "yaml": f"  {name}: {value}",
        "json": f'    "{name}": "{value}",',
        "py": f"{name} = '{value}'",
        "ini": f"{name} = {value}",
        "export": f'export {name}="{value}"',
    }[style]


def key_block(label, encrypted=False, end=True):
    lines = [f"-----BEGIN {label}-----"]
    if encrypted:
        lines += ["Proc-Type: 4,ENCRYPTED", f"DEK-Info: AES-128-CBC,{rand(32, '0123456789ABCDEF')}", ""]
    lines += [rand(64, ALNUM + "+/") for _ in range(RNG.randint(3, 8))]
    if end:
        lines.append(f"-----END {label}-----")
    return lines


def test_github_tokens_need_a_valid_checksum(tmp_path):
    t = Tree(tmp_path)
    for i in range(3):
        planted = []
        for _ in range(3):
            tok = gh_token()
            planted.append((f"{filler()} {tok} {filler()}", [("github-token", tok)]))
            bad = gh_token(valid=False)
            planted.append((f"{filler()} {bad}", []))
            glued = "x" + gh_token()
            planted.append((f"{filler()} {glued} {filler()}", []))
            tok = gh_token()
            planted.append((f"curl -H 'Authorization: Bearer {tok}' https://api.example.test", [("github-token", tok)]))
        t.doc(f"src/mod{i}/notes.md", planted)
    assert scan(tmp_path) == t.answer()


def test_aws_access_key_ids(tmp_path):
    t = Tree(tmp_path)
    planted = []
    for _ in range(4):
        k = aws_key()
        planted.append((f"aws_access_key_id = {k}", [("aws-access-key", k)]))
        planted.append((f"{filler()} ({aws_key()}) and {aws_key(example=True)}", None))
        planted.append((f"{filler()} {aws_key(example=True)}", []))
        planted.append((f"{filler()} {aws_key()[:-1]} {aws_key()}1 {aws_key().lower()}", []))
        planted.append((f"{filler()} AKIA{rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ01')}Z0", []))
    fixed = []
    for line, finds in planted:
        if finds is None:
            real = line.split("(")[1].split(")")[0]
            finds = [("aws-access-key", real)]
        fixed.append((line, finds))
    t.doc("deploy/aws.cfg", fixed)
    assert scan(tmp_path) == t.answer()


def test_private_key_blocks(tmp_path):
    t = Tree(tmp_path)
    for label in ["RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY", "DSA PRIVATE KEY"]:
        name = f"keys/{label.split()[0].lower()}_{rand(4, 'abcdef')}.pem"
        lines = ["# " + filler()] + key_block(label)
        t.write(name, lines, expect=[(1, "private-key", f"-----BEGIN {label}-----")])
    t.write("keys/encrypted.pem", key_block("RSA PRIVATE KEY", encrypted=True))
    t.write("keys/pkcs8-enc.pem", key_block("ENCRYPTED PRIVATE KEY"))
    t.write("keys/public.pem", key_block("PUBLIC KEY"))
    t.write("keys/cut.pem", ["# " + filler()] + key_block("EC PRIVATE KEY", end=False))
    enc = key_block("RSA PRIVATE KEY", encrypted=True)
    both = enc + ["# " + filler()] + key_block("EC PRIVATE KEY")
    idx = len(enc) + 1
    t.write("keys/bundle.txt", both, expect=[(idx, "private-key", "-----BEGIN EC PRIVATE KEY-----")])
    # indented, inside a YAML literal block
    lines = ["tls:", "  key: |"] + ["    " + x for x in key_block("PRIVATE KEY")]
    t.write("helm/values.yaml", lines, expect=[(2, "private-key", "-----BEGIN PRIVATE KEY-----")])
    assert scan(tmp_path) == t.answer()


def test_generic_secret_assignments(tmp_path):
    t = Tree(tmp_path)
    planted = []
    for name in ["DB_PASSWORD", "smtp_passwd", "clientSecret", "API_KEY", "stripe.apikey", "session-token",
                 "Secret_Key_Base"]:
        v = high_value()
        planted.append((assign(name, v), [("generic-secret", v)]))
    for name in ["db_password", "api_token", "jwt_secret"]:
        planted.append((assign(name, low_value()), []))                       # low entropy
        planted.append((assign(name, rand(RNG.randint(6, 11))), []))           # too short
        planted.append((assign(name, "${" + name.upper() + "}" + rand(8)), []))  # placeholder
        planted.append((assign(name, f"<{rand(14, 'abcdefghijklmnop')}>"), []))  # placeholder
    for name in ["hostname", "cache_dir", "user_agent"]:
        planted.append((assign(name, high_value(), style=RNG.choice(["env", "yaml", "py"])), []))
    tok = gh_token()
    planted.append((assign("github_token", tok, style="env"), [("github-token", tok)]))
    bad = gh_token(valid=False)
    planted.append((assign("github_token", bad, style="yaml"), [("generic-secret", bad)]))
    v1, v2 = high_value(), high_value()
    planted.append((f"password={v1} other_secret: {v2}", [("generic-secret", v1), ("generic-secret", v2)]))
    RNG.shuffle(planted)
    t.doc("app/settings.conf", planted)
    assert scan(tmp_path) == t.answer()


def test_suppressions_ignore_file_binaries_and_links(tmp_path):
    t = Tree(tmp_path)
    keep = gh_token()
    t.doc("src/app.py", [(f"TOKEN = '{keep}'", [("github-token", keep)]),
                          (f"TEST_TOKEN = '{gh_token()}'  # scan:ignore", [])])
    (tmp_path / ".scanignore").write_text("# generated and vendored code\nvendor\n*.min.js\ndocs/*.json\n\n")
    t.doc("vendor/lib/x.py", [(assign("api_key", high_value()), [])], keep=False)
    t.doc("web/static/app.min.js", [(f"var k='{gh_token()}'", [])], keep=False)
    t.doc("docs/a.json", [(assign("password", high_value(), style="json"), [])], keep=False)
    t.doc("docs/more/b.json", [(f'"id": "{aws_key()}"', [])], keep=False)
    deep = aws_key()
    t.doc("src/docs/c.json", [(f'"id": "{deep}"', [("aws-access-key", deep)])])
    near = gh_token()
    t.doc("vendor.md", [(f"see {near}", [("github-token", near)])])
    os.makedirs(tmp_path / ".git" / "objects")
    (tmp_path / ".git" / "config").write_text(assign("password", high_value()) + "\n")
    blob = bytes(RNG.getrandbits(8) for _ in range(500)) + b"\x00" + f"token={gh_token()}\n".encode()
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "logo.bin").write_bytes(blob)
    outside = tmp_path.parent / f"outside-{rand(6)}"
    outside.mkdir()
    (outside / "leak.env").write_text(f"API_KEY={high_value()}\n")
    os.symlink(outside / "leak.env", tmp_path / "src" / "linked.env")
    os.symlink(outside, tmp_path / "linkdir")
    assert scan(tmp_path) == t.answer()


def test_gzip_members_and_crlf_files(tmp_path):
    t = Tree(tmp_path)
    v = high_value()
    tok = gh_token()
    t.doc("logs/app.log.1.gz", [(f"{filler()} auth={tok}", [("github-token", tok)]),
                                (assign("db_password", v, style="env"), [("generic-secret", v)])], gz=True)
    k = aws_key()
    v2 = high_value()
    t.doc("win/setup.ini", [(f"key_id = {k}", [("aws-access-key", k)]),
                            (assign("service_password", v2, style="ini"), [("generic-secret", v2)])], crlf=True)
    lines = ["# " + filler()] + key_block("OPENSSH PRIVATE KEY")
    t.write("win/id_ed25519", lines, crlf=True, expect=[(1, "private-key", "-----BEGIN OPENSSH PRIVATE KEY-----")])
    (tmp_path / "logs" / "broken.gz").write_bytes(b"\x1f\x8b" + bytes(RNG.getrandbits(8) for _ in range(40)))
    assert scan(tmp_path) == t.answer()


def test_mixed_repository(tmp_path):
    t = Tree(tmp_path)
    for i in range(RNG.randint(6, 10)):
        planted = []
        for _ in range(RNG.randint(1, 5)):
            kind = RNG.randrange(5)
            if kind == 0:
                tok = gh_token()
                planted.append((f"{filler()} {tok}", [("github-token", tok)]))
            elif kind == 1:
                k = aws_key()
                planted.append((assign("aws_access_key_id", k, style="env"), [("aws-access-key", k)]))
            elif kind == 2:
                v = high_value()
                planted.append((assign(RNG.choice(["PASSWORD", "auth_token", "app_secret"]), v), [("generic-secret", v)]))
            elif kind == 3:
                planted.append((f"{filler()} {gh_token(valid=False)}", []))
            else:
                planted.append((filler(), []))
        t.doc(f"{rand(5, 'abcdefgh')}/{rand(6, 'abcdefgh')}/file{i}.{RNG.choice(['py', 'env', 'yml', 'txt'])}", planted)
    assert scan(tmp_path) == t.answer()
