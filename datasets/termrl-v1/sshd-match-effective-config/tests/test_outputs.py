"""/app/sshd-eff on configurations generated here; the expected settings follow the instruction's rules,
implemented independently below."""
import fnmatch
import ipaddress
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/sshd-eff"

DEFAULTS = {"port": ["22"], "listenaddress": ["0.0.0.0"], "logingracetime": "120", "usedns": "no",
            "allowusers": [], "denyusers": [], "allowgroups": [], "denygroups": [],
            "permitrootlogin": "prohibit-password", "passwordauthentication": "yes", "pubkeyauthentication": "yes",
            "x11forwarding": "no", "allowtcpforwarding": "yes", "maxauthtries": "6", "banner": "none",
            "forcecommand": "none", "chrootdirectory": "none", "acceptenv": []}
GLOBAL_ONLY = {"port", "listenaddress", "logingracetime", "usedns", "allowusers", "denyusers", "allowgroups",
               "denygroups"}


def run(root, user, host, addr):
    return subprocess.run([TOOL, str(root), user, host, addr], capture_output=True, text=True, timeout=60)


# ---------------- independent model ----------------
def glob_ok(pat, s):
    return fnmatch.fnmatchcase(s, pat.replace("[", "[[]"))


def pat_list(pats, pred):
    items = pats.split(",")
    if any(pred(p[1:]) for p in items if p[:1] == "!"):
        return False
    return any(pred(p) for p in items if p[:1] != "!")


def on_addr(p, addr):
    if "/" not in p:
        return glob_ok(p, addr)
    try:
        return ipaddress.ip_address(addr) in ipaddress.ip_network(p, strict=False)
    except ValueError:
        return False


def split_args(s):
    out, cur, q, started = [], "", False, False
    for ch in s:
        if q:
            if ch == '"':
                q = False
            else:
                cur += ch
        elif ch == '"' and not started:
            q, started = True, True
        elif ch in " \t":
            if started:
                out.append(cur)
            cur, started = "", False
        else:
            cur += ch
            started = True
    if started:
        out.append(cur)
    return out


def flatten(root, path, state, out):
    """Appends (where, keyword, args, block) for every line; block is None or a Match-line tuple."""
    rel = "/" + str(Path(path).relative_to(root))
    block = state
    for n, raw in enumerate(Path(path).read_text().split("\n"), 1):
        s = raw.strip()
        if not s or s[0] == "#":
            continue
        i = 0
        while i < len(s) and not s[i].isspace() and s[i] != "=":
            i += 1
        kw, rest = s[:i], s[i:].strip()
        if rest.startswith("="):
            rest = rest[1:].strip()
        args = split_args(rest)
        where = f"{rel}:{n}"
        if kw.lower() == "match":
            block = (where, tuple(args))
            out.append((where, "match", args, block))
        elif kw.lower() == "include" and args:
            for a in args:
                full = Path(root, a.lstrip("/")) if a.startswith("/") else Path(root, "etc/ssh", a)
                parent = full.parent
                hits = sorted(str(p) for p in parent.glob(full.name) if p.is_file()) if parent.is_dir() else []
                for h in hits:
                    flatten(root, h, block, out)
        else:
            out.append((where, kw, args, block))


def evaluate(root, user, host, addr):
    pw = [l.split(":") for l in Path(root, "etc/passwd").read_text().splitlines() if l]
    gr = [l.split(":") for l in Path(root, "etc/group").read_text().splitlines() if l]
    me = [p for p in pw if p[0] == user]
    groups = set()
    if me:
        groups = {g[0] for g in gr if g[2] == me[0][3] or user in g[3].split(",")}
    lines = []
    flatten(root, Path(root, "etc/ssh/sshd_config"), None, lines)

    def block_applies(block):
        args = list(block[1])
        if [a.lower() for a in args] == ["all"]:
            return True
        if not args or len(args) % 2:
            raise ValueError(f"error: {block[0]}:")
        res = True
        for c, p in zip(args[0::2], args[1::2]):
            c = c.lower()
            if c == "user":
                res &= pat_list(p, lambda x: glob_ok(x, user))
            elif c == "host":
                res &= pat_list(p, lambda x: glob_ok(x.lower(), host.lower()))
            elif c == "address":
                res &= pat_list(p, lambda x: on_addr(x, addr))
            elif c == "group":
                items = p.split(",")
                neg = any(glob_ok(x[1:], g) for x in items if x.startswith("!") for g in groups)
                res &= (not neg) and any(glob_ok(x, g) for x in items if not x.startswith("!") for g in groups)
            else:
                raise ValueError(f"error: {block[0]}:")
        return res

    first_match, first_global, lists = {}, {}, {}
    for where, kw, args, block in lines:
        k = kw.lower()
        if k == "match":
            block_applies(block)
            continue
        if not args:
            return 1, f"error: {where}:"
        if k not in DEFAULTS:
            return 1, f"error: {where}:"
        if block is not None and k in GLOBAL_ONLY:
            return 1, f"error: {where}:"
    for where, kw, args, block in lines:
        k = kw.lower()
        if k == "match" or (block is not None and not block_applies(block)):
            continue
        if isinstance(DEFAULTS[k], list):
            lists.setdefault(k, []).extend(args)
        elif block is None:
            first_global.setdefault(k, " ".join(args))
        else:
            first_match.setdefault(k, " ".join(args))
    res = {}
    for k, d in DEFAULTS.items():
        res[k] = lists.get(k, d) if isinstance(d, list) else first_match.get(k, first_global.get(k, d))

    def entry_user(e):
        u, at, h = e.partition("@")
        return glob_ok(u, user) and (not at or (on_addr(h, addr) if "/" in h else
                                                 glob_ok(h.lower(), host.lower()) or glob_ok(h, addr)))

    deny = (any(entry_user(e) for e in res["denyusers"])
            or (res["allowusers"] and not any(entry_user(e) for e in res["allowusers"]))
            or any(glob_ok(e, g) for e in res["denygroups"] for g in groups)
            or (res["allowgroups"] and not any(glob_ok(e, g) for e in res["allowgroups"] for g in groups)))
    res["access"] = "deny" if deny else "allow"
    return 0, res


def check(root, user, host, addr):
    try:
        code, want = evaluate(root, user, host, addr)
    except ValueError as e:
        code, want = 1, str(e)
    r = run(root, user, host, addr)
    assert r.returncode == code, (r.returncode, code, r.stderr, want)
    if code == 0:
        assert json.loads(r.stdout) == want
    else:
        assert r.stderr.startswith(want), (r.stderr, want)
    return want


# ---------------- generators ----------------
USERS = ["alice", "bob", "carol", "dev-ops", "Alice", "svc_backup", "guest"]
GROUPS = ["staff", "wheel", "sftp", "devs", "ops"]
HOSTS = ["ws1.corp.example", "build.lab.example.org", "GW.Corp.Example", "home.isp.net", "db2.corp.example"]
ADDRS = ["10.1.2.3", "10.99.0.7", "192.168.5.20", "172.16.4.4", "2001:db8::15", "203.0.113.9"]


def write_ids(root):
    Path(root, "etc").mkdir(parents=True, exist_ok=True)
    pw, members = [], {g: [] for g in GROUPS}
    gids = {g: 100 + i for i, g in enumerate(GROUPS)}
    for i, u in enumerate(USERS[:-1]):  # guest has no passwd entry
        pw.append(f"{u}:x:{1000 + i}:{gids[RNG.choice(GROUPS)] if RNG.random() < 0.5 else 5000 + i}:{u}:/home/{u}:/bin/sh")
        for g in RNG.sample(GROUPS, RNG.randint(0, 2)):
            members[g].append(u)
    Path(root, "etc/passwd").write_text("\n".join(pw) + "\n")
    Path(root, "etc/group").write_text("".join(f"{g}:x:{gids[g]}:{','.join(members[g])}\n" for g in GROUPS))


def pats(pool, k=2):
    items = RNG.sample(pool, RNG.randint(1, k))
    items = [("!" if RNG.random() < 0.25 else "") + (x if RNG.random() < 0.6 else x[:RNG.randint(1, 3)] + "*")
             for x in items]
    if all(x.startswith("!") for x in items) and RNG.random() < 0.7:
        items.append("*")
    return ",".join(items)


def match_line():
    if RNG.random() < 0.12:
        return RNG.choice(["Match all", "match ALL"])
    crits = RNG.sample(["User", "Group", "Host", "Address"], RNG.randint(1, 2))
    parts = []
    for c in crits:
        if c == "User":
            p = pats(USERS)
        elif c == "Group":
            p = pats(GROUPS)
        elif c == "Host":
            p = pats(["*.corp.example", "*.LAB.example.org", "home.isp.net", "gw.*"])
        else:
            p = ",".join(RNG.sample(["10.0.0.0/8", "!10.99.0.0/16", "192.168.*", "2001:db8::/32", "203.0.113.?",
                                     "172.16.0.0/12"], RNG.randint(1, 3)))
        parts.append(f"{RNG.choice([c, c.lower(), c.upper()])} {p}")
    return "Match " + " ".join(parts)


MATCHABLE = [("PermitRootLogin", ["no", "yes", "prohibit-password"]), ("PasswordAuthentication", ["yes", "no"]),
             ("PubkeyAuthentication", ["yes", "no"]), ("X11Forwarding", ["yes", "no"]),
             ("AllowTcpForwarding", ["no", "local", "yes"]), ("MaxAuthTries", ["2", "4", "10"]),
             ("Banner", ["/etc/issue", '"/etc/ssh/my banner.txt"']),
             ("ForceCommand", ['internal-sftp -u 022', '"/usr/bin/run it" --flag']),
             ("ChrootDirectory", ["/srv/%u", "none"]), ("AcceptEnv", ["LANG LC_*", "TZ", "GIT_*"])]
GLOBAL = [("Port", ["22", "2200 2201"]), ("ListenAddress", ["0.0.0.0", "[::]"]), ("LoginGraceTime", ["30", "2m"]),
          ("UseDNS", ["yes", "no"]), ("AllowUsers", ["alice bob@10.0.0.0/8 *@*.corp.example", "carol dev-*"]),
          ("DenyUsers", ["guest", "bob@203.0.113.*", "Alice"]), ("AllowGroups", ["staff devs", "wh*"]),
          ("DenyGroups", ["ops", "sftp"])]


def kv(name, vals):
    v = RNG.choice(vals)
    k = RNG.choice([name, name.lower(), name.upper()])
    return RNG.choice([f"{k} {v}", f"{k}={v}", f"{k} = {v}", f"  {k}\t{v}"])


def body(n, in_match):
    pool = MATCHABLE + ([] if in_match else GLOBAL)
    return [kv(*RNG.choice(pool)) for _ in range(n)]


def random_root(root):
    write_ids(root)
    ssh = Path(root, "etc/ssh")
    (ssh / "conf.d").mkdir(parents=True)
    (ssh / "m").mkdir()
    main = ["# generated"] + body(RNG.randint(2, 6), False)
    main.insert(RNG.randint(1, len(main)), "Include conf.d/*.conf")
    for i in range(RNG.randint(1, 3)):
        inc = body(RNG.randint(1, 4), False)
        if RNG.random() < 0.6:
            inc += [match_line()] + body(RNG.randint(1, 3), True)
        (ssh / "conf.d" / f"{RNG.randint(10, 99)}-{i}.conf").write_text("\n".join(inc) + "\n")
    (ssh / "conf.d" / "ignored.conf.bak").write_text("Bogus line\n")
    (ssh / "m" / "extra.conf").write_text("\n".join(body(2, True)) + "\n")
    for _ in range(RNG.randint(1, 4)):
        main += ["", match_line()] + body(RNG.randint(1, 4), True)
        if RNG.random() < 0.3:
            main.append(RNG.choice(["Include m/*.conf", "Include /etc/ssh/m/extra.conf", "Include m/none-*.conf"]))
    Path(ssh, "sshd_config").write_text("\n".join(main) + "\n")


@pytest.mark.parametrize("round_", range(6))
def test_random_configs(tmp_path, round_):
    random_root(tmp_path)
    for _ in range(8):
        check(tmp_path, RNG.choice(USERS), RNG.choice(HOSTS), RNG.choice(ADDRS))


def test_example_root():
    r = run("/app/example-root", "upload", "x.lab.example.org", "192.168.1.5")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["forcecommand"] == "internal-sftp -d /upload dir"
    assert got["chrootdirectory"] == "/srv/sftp/%u" and got["x11forwarding"] == "no"
    assert got["acceptenv"] == ["LANG", "LC_*", "XMODIFIERS"] and got["port"] == ["22", "2222"]
    assert got["passwordauthentication"] == "no" and got["maxauthtries"] == "3" and got["access"] == "allow"
    r = run("/app/example-root", "legacy", "ws.lab.example.org", "10.2.0.1")
    got = json.loads(r.stdout)
    assert (got["pubkeyauthentication"], got["x11forwarding"], got["maxauthtries"]) == ("no", "yes", "10")
    r = run("/app/example-root", "guest", "h.example.net", "10.99.1.1")
    assert json.loads(r.stdout)["access"] == "deny"
    for args in [("alice", "a.corp", "10.1.2.3"), ("bob", "x.lab.example.org", "10.99.3.3")]:
        check("/app/example-root", *args)


def write_tree(root, main, files=(), passwd="alice:x:1000:100::/:/bin/sh\n", group="staff:x:100:\nwheel:x:10:alice\n"):
    Path(root, "etc/ssh").mkdir(parents=True, exist_ok=True)
    Path(root, "etc/passwd").write_text(passwd)
    Path(root, "etc/group").write_text(group)
    Path(root, "etc/ssh/sshd_config").write_text(main)
    for name, text in files:
        Path(root, "etc/ssh", name).parent.mkdir(parents=True, exist_ok=True)
        Path(root, "etc/ssh", name).write_text(text)


def test_match_overrides_and_include_scope(tmp_path):
    write_tree(tmp_path, "X11Forwarding yes\nMatch User alice\nInclude inc/a.conf\nMaxAuthTries 9\n"
                         "Match all\nX11Forwarding no\nBanner /late\nAcceptEnv LATE\n",
               [("inc/a.conf", "Banner /from-include\nMatch User nobody\nMaxAuthTries 1\n")])
    r = run(tmp_path, "alice", "h", "10.0.0.1")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert (got["banner"], got["maxauthtries"], got["x11forwarding"]) == ("/from-include", "9", "no")
    assert got["acceptenv"] == ["LATE"]
    r = run(tmp_path, "bob", "h", "10.0.0.1")
    got = json.loads(r.stdout)
    assert (got["banner"], got["maxauthtries"], got["x11forwarding"]) == ("/late", "6", "no")


def test_patterns_groups_and_access(tmp_path):
    write_tree(tmp_path, 'AllowUsers alice@10.0.0.0/8 "bob@*.corp.example" carol@192.168.1.?\n'
                         "DenyGroups wh?el\n"
                         "Match Group !wheel,sta* Address 10.0.0.0/8,!10.5.0.0/16\nPermitRootLogin yes\n"
                         "Match Host *.CORP.example User b*,!bobby\nPermitRootLogin no\n",
               passwd="alice:x:1000:100::/:/bin/sh\nbob:x:1001:100::/:/bin/sh\nbobby:x:1002:100::/:/bin/sh\n"
                      "carol:x:1003:7::/:/bin/sh\n",
               group="staff:x:100:carol\nwheel:x:10:alice\nother:x:7:\n")
    cases = {("alice", "x.corp.example", "10.1.1.1"): ("prohibit-password", "deny"),
             ("bob", "x.corp.example", "10.1.1.1"): ("yes", "allow"),
             ("bob", "X.Corp.Example", "10.5.1.1"): ("no", "allow"),
             ("bobby", "x.corp.example", "10.1.1.1"): ("yes", "deny"),
             ("carol", "c.home", "192.168.1.7"): ("prohibit-password", "allow"),
             ("carol", "c.home", "192.168.1.70"): ("prohibit-password", "deny"),
             ("carol", "c.home", "10.1.1.1"): ("yes", "deny")}
    for (u, h, a), (prl, acc) in cases.items():
        r = run(tmp_path, u, h, a)
        assert r.returncode == 0, r.stderr
        got = json.loads(r.stdout)
        assert (got["permitrootlogin"], got["access"]) == (prl, acc), (u, h, a)
        check(tmp_path, u, h, a)


@pytest.mark.parametrize("main,files,where", [
    ("Port 22\nMatch User x\nPort 2222\n", [], "/etc/ssh/sshd_config:3:"),
    ("Include d/*.conf\n", [("d/1.conf", "Banner /x\n"), ("d/2.conf", "\n# c\nFrobnicate yes\n")], "/etc/ssh/d/2.conf:3:"),
    ("Match User nobody\nInclude d.conf\n", [("d.conf", "UseDNS no\n")], "/etc/ssh/d.conf:1:"),
    ("Banner\n", [], "/etc/ssh/sshd_config:1:"),
    ("Match Color red\nBanner /x\n", [], "/etc/ssh/sshd_config:1:"),
    ("Match User\n", [], "/etc/ssh/sshd_config:1:"),
])
def test_errors(tmp_path, main, files, where):
    write_tree(tmp_path, main, files)
    r = run(tmp_path, "alice", "h", "10.0.0.1")
    assert r.returncode == 1
    assert r.stderr.startswith(f"error: {where}"), r.stderr
