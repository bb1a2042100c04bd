"""Behavioural tests for /app/htcheck on password files generated here (never seen by the agent)."""
import base64
import hashlib
import random
import subprocess
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
import crypt  # noqa: E402

TOOL = "/app/htcheck"
ITOA = b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SALTCH = ITOA.decode()


def _to64(v, n):
    out = bytearray()
    for _ in range(n):
        out.append(ITOA[v & 0x3F])
        v >>= 6
    return bytes(out)


def apr1(pw: str, salt: str) -> str:
    pw, salt, magic = pw.encode(), salt.encode()[:8], b"$apr1$"
    alt = hashlib.md5(pw + salt + pw).digest()
    ctx = pw + magic + salt
    n = len(pw)
    while n > 0:
        ctx += alt[:min(16, n)]
        n -= 16
    i = len(pw)
    while i:
        ctx += b"\0" if i & 1 else pw[:1]
        i >>= 1
    fin = hashlib.md5(ctx).digest()
    for r in range(1000):
        c = pw if r & 1 else fin
        if r % 3:
            c += salt
        if r % 7:
            c += pw
        c += fin if r & 1 else pw
        fin = hashlib.md5(c).digest()
    out = b""
    for a, b, d in ((0, 6, 12), (1, 7, 13), (2, 8, 14), (3, 9, 15), (4, 10, 5)):
        out += _to64((fin[a] << 16) | (fin[b] << 8) | fin[d], 4)
    out += _to64(fin[11], 2)
    return (magic + salt + b"$" + out).decode()


def test_apr1_reference_known_vector():
    # fixed vector (computed with `openssl passwd -apr1 -salt abc x`), guards this file's own reference
    assert apr1("x", "abc") == "$apr1$abc$51YrpNiEtKAQp4coykJmu."


R = random.Random(0x5EC3)


def salt(n):
    return "".join(R.choice(SALTCH) for _ in range(n))


def pword():
    alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_.!@%+=~é"
    return "".join(R.choice(alphabet) for _ in range(R.randint(6, 19)))


def h_apr1(pw):
    return apr1(pw, salt(R.randint(3, 8)))


def h_md5(pw):
    return crypt.crypt(pw, "$1$" + salt(8) + "$")


def h_sha256(pw):
    pre = "$5$" + (f"rounds={R.choice([1000, 2500, 7000])}$" if R.random() < 0.5 else "")
    return crypt.crypt(pw, pre + salt(16) + "$")


def h_sha512(pw):
    pre = "$6$" + (f"rounds={R.choice([1000, 3000, 6000])}$" if R.random() < 0.5 else "")
    return crypt.crypt(pw, pre + salt(R.randint(8, 16)) + "$")


def h_bcrypt(pw):
    h = crypt.crypt(pw, "$2b$04$" + salt(22))
    return R.choice(["$2a$", "$2b$", "$2y$"]) + h[4:]


def h_sha1(pw):
    return "{SHA}" + base64.b64encode(hashlib.sha1(pw.encode()).digest()).decode()


def h_ssha(pw):
    s = bytes(R.randrange(256) for _ in range(R.choice([1, 4, 8, 16])))
    return "{SSHA}" + base64.b64encode(hashlib.sha1(pw.encode() + s).digest() + s).decode()


def h_des(pw):
    return crypt.crypt(pw, salt(2))


MAKERS = {"apr1": h_apr1, "md5crypt": h_md5, "sha256crypt": h_sha256, "sha512crypt": h_sha512,
          "bcrypt": h_bcrypt, "sha1": h_sha1, "ssha": h_ssha, "des": h_des}
UNSUPPORTED = ["$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG",
               "{MD5}XrY7u+Ae7tCTyyK7j1rNww==", "", "!locked", "$y$j9T$F5Jx5fExrKuPp53xLKQ..1$X3DX6M94c7o"]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    d = tmp_path_factory.mktemp("ht")
    users = {}   # user -> (scheme, password, hash) of the FIRST entry
    lines, audit = [], []
    n = 0
    for sch, mk in MAKERS.items():
        for _ in range(3):
            n += 1
            u = f"{R.choice(['ops', 'dev', 'web', 'qa', 'ext'])}{n:02d}"
            pw = pword()
            h = mk(pw)
            users[u] = (sch, pw, h)
            line = f"{u}:{h}"
            if R.random() < 0.3:
                line += ":" + R.choice(["migrated 2014", "contractor", "temp account"])
            lines.append(line)
            audit.append(f"{u}\t{sch}")
            if R.random() < 0.25:
                lines.append(R.choice(["", "   ", "# ---- team " + u, "  # disabled below"]))
    for i, h in enumerate(UNSUPPORTED):
        u = f"legacy{i}"
        users[u] = ("unsupported", "whatever1", h)
        lines.append(f"{u}:{h}")
        audit.append(f"{u}\tunsupported")
    # duplicates: a later entry for an existing user with a different password (must be ignored by verify)
    dups = R.sample(sorted(u for u in users if users[u][0] != "unsupported"), 3)
    for u in dups:
        other = pword() + "X"
        h = h_sha1(other)
        lines.append(f"{u}:{h}")
        audit.append(f"{u}\tsha1")
        users[u] = users[u] + (other,)
    body = "\r\n".join(lines) + "\r\n"
    p = d / "legacy.htpasswd"
    p.write_bytes(body.encode("utf-8"))
    return p, users, audit, dups


def run(*args):
    r = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout.strip()


def by_scheme(users, sch):
    return [(u, v) for u, v in users.items() if v[0] == sch]


@pytest.mark.parametrize("sch", ["apr1", "md5crypt"])
def test_md5_family(world, sch):
    p, users, _, _ = world
    for u, v in by_scheme(users, sch):
        assert run("verify", p, u, v[1]) == (0, "ok"), (u, v[2])
        assert run("verify", p, u, v[1][:-1]) == (1, "mismatch"), (u, v[2])


@pytest.mark.parametrize("sch", ["sha256crypt", "sha512crypt", "bcrypt"])
def test_crypt_family(world, sch):
    p, users, _, _ = world
    for u, v in by_scheme(users, sch):
        assert run("verify", p, u, v[1]) == (0, "ok"), (u, v[2])
        assert run("verify", p, u, v[1] + "1") == (1, "mismatch"), (u, v[2])


def test_ldap_sha_and_ssha(world):
    p, users, _, _ = world
    for sch in ("sha1", "ssha"):
        for u, v in by_scheme(users, sch):
            assert run("verify", p, u, v[1]) == (0, "ok"), (u, v[2])
            assert run("verify", p, u, v[1].upper() + "!") == (1, "mismatch"), (u, v[2])


def test_des_only_first_eight_characters(world):
    p, users, _, _ = world
    for u, v in by_scheme(users, "des"):
        pw = v[1]
        assert run("verify", p, u, pw) == (0, "ok"), (u, v[2])
        if len(pw) > 8:
            assert run("verify", p, u, pw[:8] + "zz") == (0, "ok"), (u, v[2])
        assert run("verify", p, u, "Q" + pw[1:]) == (1, "mismatch"), (u, v[2])


def test_missing_user_and_unsupported(world):
    p, users, _, _ = world
    assert run("verify", p, "nobody-here", "x") == (2, "no-such-user")
    assert run("verify", p, "legacy", "x") == (2, "no-such-user")   # prefix of real users is not a user
    for u, v in by_scheme(users, "unsupported"):
        assert run("verify", p, u, v[1]) == (3, "unsupported"), (u, v[2])


def test_first_entry_wins(world):
    p, users, _, dups = world
    for u in dups:
        first_pw, later_pw = users[u][1], users[u][3]
        assert run("verify", p, u, first_pw) == (0, "ok"), u
        assert run("verify", p, u, later_pw) == (1, "mismatch"), u


def test_audit_lists_every_entry_in_order(world):
    p, _, audit, _ = world
    r = subprocess.run([TOOL, "audit", str(p)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    assert r.stdout.splitlines() == audit
