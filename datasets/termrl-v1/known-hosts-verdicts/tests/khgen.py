"""Writes OpenSSH known_hosts files (hashed and plain entries, [host]:port, wildcards, negations, @revoked,
@cert-authority) and connection attempts with the expected verdicts."""
import base64
import hashlib
import hmac
import json
import os
import random


def key(r, kind):
    if kind == "ssh-ed25519":
        blob = b"\0\0\0\x0bssh-ed25519\0\0\0\x20" + bytes(r.randrange(256) for _ in range(32))
    elif kind == "ecdsa-sha2-nistp256":
        blob = b"\0\0\0\x13ecdsa-sha2-nistp256\0\0\0\x08nistp256\0\0\0\x41\x04" + bytes(r.randrange(256) for _ in range(64))
    else:
        blob = b"\0\0\0\x07ssh-rsa\0\0\0\x03\x01\x00\x01\0\0\x01\x01\x00" + bytes(r.randrange(256) for _ in range(256))
    return base64.b64encode(blob).decode()


def hashed(r, host):
    salt = bytes(r.randrange(256) for _ in range(20))
    mac = hmac.new(salt, host.encode(), hashlib.sha1).digest()
    return f"|1|{base64.b64encode(salt).decode()}|{base64.b64encode(mac).decode()}"


def hoststr(host, port):
    return host.lower() if port == 22 else f"[{host.lower()}]:{port}"


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(3, 6)))  # noqa: E731
    dom = r.choice(["corp.example", "int.example.net", "lab.example.org"])
    hosts = [f"{word()}{i}.{dom}" for i in range(10)]
    ips = [f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}" for _ in range(3)]
    kinds = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa"]
    truth = {}     # (hoststr, kind) -> key
    files = {"global": [], "alice": [], "bob": []}

    def add(fname, patterns, kind, k, marker=None, comment=None):
        line = (marker + " " if marker else "") + ",".join(patterns) + f" {kind} {k}" + (f" {comment}" if comment else "")
        files[fname].append(line)
        return (fname, len(files[fname]))

    lines = {}
    # alice: hashed entries (HashKnownHosts yes)
    for h in hosts[:5]:
        kind = r.choice(kinds)
        k = key(r, kind)
        truth[(hoststr(h, 22), kind)] = k
        lines[(hoststr(h, 22), kind)] = add("alice", [hashed(r, hoststr(h, 22))], kind, k)
    # a non-standard port, hashed
    hp = (hosts[5], r.choice([2222, 8022]))
    kind = "ssh-ed25519"
    k = key(r, kind)
    truth[(hoststr(*hp), kind)] = k
    lines[(hoststr(*hp), kind)] = add("alice", [hashed(r, hoststr(*hp))], kind, k)
    # bob: plain entries with aliases and addresses, mixed case
    for h, ip in zip(hosts[6:9], ips):
        kind = r.choice(kinds)
        k = key(r, kind)
        for hs in (hoststr(h, 22), ip):
            truth[(hs, kind)] = k
        pat = [h.upper() if r.random() < 0.3 else h, ip]
        lines[(hoststr(h, 22), kind)] = lines[(ip, kind)] = add("bob", pat, kind, k, comment=f"added {word()}")
    # global: wildcard with a negation, a cert-authority line, a revoked key
    wk = key(r, "ssh-ed25519")
    excluded = hosts[9]
    wl = add("global", [f"*.{dom}", f"!{excluded}"], "ssh-ed25519", wk)
    add("global", [f"*.{dom}"], "ssh-ed25519", key(r, "ssh-ed25519"), marker="@cert-authority",
        comment="corp host CA")
    revoked = key(r, "ssh-rsa")
    rl = add("global", ["*"], "ssh-rsa", revoked, marker="@revoked", comment="stolen 2026-10")
    for f in files.values():
        for _ in range(r.randint(1, 2)):
            f.insert(r.randint(0, len(f)), r.choice(["# managed by ansible", ""]))
    # recompute line numbers after inserting comments: find each line's position by content
    def where(fname, text):
        return f"{fname}:{files[fname].index(text) + 1}"

    with open(os.path.join(out, "known_hosts.global"), "w") as f:
        f.write("\n".join(files["global"]) + "\n")
    for u in ("alice", "bob"):
        with open(os.path.join(out, f"known_hosts.{u}"), "w") as f:
            f.write("\n".join(files[u]) + "\n")

    def line_of(loc):
        fname, idx = loc
        return None

    # attempts
    attempts, exp = [], []

    def attempt(user, host, port, kind, k, result, loc):
        i = f"c{len(attempts) + 1:02d}"
        attempts.append({"id": i, "user": user, "host": host, "port": port, "type": kind, "key": k})
        exp.append({"id": i, "result": result, "line": loc})

    def text_of(fname, patterns, kind, k, marker=None, comment=None):
        return (marker + " " if marker else "") + ",".join(patterns) + f" {kind} {k}" + (f" {comment}" if comment else "")

    for (hs, kind), k in list(truth.items()):
        loc_line = next(ln for ln in files["alice"] + files["bob"] if f" {kind} {k}" in ln)
        fname = "alice" if loc_line in files["alice"] else "bob"
        user = fname
        host, port = (hs, 22) if not hs.startswith("[") else (hs[1:hs.index("]")], int(hs.rsplit(":", 1)[1]))
        if r.random() < 0.3:
            host = host.upper()
        attempt(user, host, port, kind, k, "known", where(fname, loc_line))
        if r.random() < 0.6:
            attempt(user, host, port, kind, key(r, kind), "changed", where(fname, loc_line))
        other = next(x for x in kinds if x != kind and (hs, x) not in truth)
        if other != "ssh-ed25519" and other != "ssh-rsa":
            attempt(user, host, port, other, key(r, other), "unknown", None)
    # port matters: a port-22 host on another port is unknown to the user's file
    h = hosts[0]
    attempt("alice", h, 2200, "ssh-rsa", key(r, "ssh-rsa"), "unknown", None)
    # the wildcard: any corp host with the shared ed25519 key, except the excluded one
    wl_text = next(ln for ln in files["global"] if ln.endswith(wk))
    attempt("bob", f"{word()}.{dom}", 22, "ssh-ed25519", wk, "known", where("global", wl_text))
    attempt("bob", excluded, 22, "ssh-ed25519", wk, "unknown", None)
    attempt("alice", f"{word()}.{dom}", 22, "ssh-ed25519", key(r, "ssh-ed25519"), "changed", where("global", wl_text))
    # the revoked key wins over everything, for any host
    rl_text = next(ln for ln in files["global"] if ln.startswith("@revoked"))
    attempt("alice", hosts[1], 22, "ssh-rsa", revoked, "revoked", where("global", rl_text))
    attempt("bob", ips[0], 22, "ssh-rsa", revoked, "revoked", where("global", rl_text))
    # a host outside the domain
    attempt("bob", f"{word()}.example.com", 22, "ssh-ed25519", wk, "unknown", None)
    order = list(range(len(attempts)))
    r.shuffle(order)
    attempts = [attempts[i] for i in order]
    exp = [exp[i] for i in order]
    for n, (a, e) in enumerate(zip(attempts, exp), 1):
        a["id"] = e["id"] = f"c{n:02d}"
    with open(os.path.join(out, "attempts.jsonl"), "w") as f:
        for a in attempts:
            f.write(json.dumps(a) + "\n")
    _ = (lines, wl, rl, line_of, text_of)
    return exp
