#!/usr/bin/env python3
"""Effective sshd-lite settings for one connection: includes, Match blocks, first-value-wins, access."""
import glob
import ipaddress
import json
import os
import re
import sys

SINGLE = {"logingracetime": ("120", False), "usedns": ("no", False), "permitrootlogin": ("prohibit-password", True),
          "passwordauthentication": ("yes", True), "pubkeyauthentication": ("yes", True),
          "x11forwarding": ("no", True), "allowtcpforwarding": ("yes", True), "maxauthtries": ("6", True),
          "banner": ("none", True), "forcecommand": ("none", True), "chrootdirectory": ("none", True)}
LIST = {"port": (["22"], False), "listenaddress": (["0.0.0.0"], False), "allowusers": ([], False),
        "denyusers": ([], False), "allowgroups": ([], False), "denygroups": ([], False), "acceptenv": ([], True)}


class ConfError(Exception):
    pass


def wild(pat, value, fold=False):
    if fold:
        pat, value = pat.lower(), value.lower()
    rx = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pat)
    return re.fullmatch(rx, value, re.S) is not None


def addr_match(pat, addr):
    if "/" in pat:
        try:
            return ipaddress.ip_address(addr) in ipaddress.ip_network(pat, strict=False)
        except ValueError:
            return False
    return wild(pat, addr)


def list_match(patterns, test):
    pos = False
    for p in patterns.split(","):
        if p.startswith("!"):
            if test(p[1:]):
                return False
        elif test(p):
            pos = True
    return pos


def tokenize(rest):
    out, i = [], 0
    while i < len(rest):
        if rest[i].isspace():
            i += 1
        elif rest[i] == '"':
            j = rest.find('"', i + 1)
            j = len(rest) if j < 0 else j
            out.append(rest[i + 1:j])
            i = j + 1
        else:
            j = i
            while j < len(rest) and not rest[j].isspace():
                j += 1
            out.append(rest[i:j])
            i = j
    return out


class Evaluator:
    def __init__(self, root, user, host, addr):
        self.root, self.user, self.host, self.addr = root, user, host, addr
        self.groups = self.user_groups()
        self.match_vals, self.global_vals = {}, {}
        self.lists = {k: [] for k in LIST}
        self.given = set()

    def user_groups(self):
        def rows(name):
            try:
                with open(os.path.join(self.root, "etc", name), encoding="utf-8") as f:
                    return [line.rstrip("\n").split(":") for line in f if line.strip()]
            except FileNotFoundError:
                return []
        pw = [r for r in rows("passwd") if r[0] == self.user]
        if not pw:
            return set()
        out = set()
        for g in rows("group"):
            if len(g) >= 4 and (g[2] == pw[0][3] or self.user in g[3].split(",")):
                out.add(g[0])
        return out

    def match_line(self, args, where):
        if len(args) == 1 and args[0].lower() == "all":
            return True
        if not args or len(args) % 2:
            raise ConfError(f"error: {where}: malformed Match")
        ok = True
        for crit, pats in zip(args[::2], args[1::2]):
            c = crit.lower()
            if c == "user":
                r = list_match(pats, lambda p: wild(p, self.user))
            elif c == "host":
                r = list_match(pats, lambda p: wild(p, self.host, True))
            elif c == "address":
                r = list_match(pats, lambda p: addr_match(p, self.addr))
            elif c == "group":
                neg = [p[1:] for p in pats.split(",") if p.startswith("!")]
                pos = [p for p in pats.split(",") if not p.startswith("!")]
                r = not any(wild(p, g) for p in neg for g in self.groups) and \
                    any(wild(p, g) for p in pos for g in self.groups)
            else:
                raise ConfError(f"error: {where}: unknown Match criterion {crit}")
            ok = ok and r
        return ok

    def read(self, path, depth=0, block=None):
        """block: None = global, else whether the current Match block applies; an included file starts
        in its includer's block and its own Match blocks end with it."""
        if depth > 16:
            raise ConfError(f"error: {self.rel(path)}:1: Include nested too deeply")
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        for n, raw in enumerate(lines, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"([^\s=]+)\s*=?\s*(.*)$", line)
            kw, args = m.group(1).lower(), tokenize(m.group(2))
            where = f"{self.rel(path)}:{n}"
            if kw == "match":
                block = self.match_line(args, where)
                continue
            if not args:
                raise ConfError(f"error: {where}: missing argument for {m.group(1)}")
            if kw == "include":
                for pat in args:
                    base = self.root + pat if pat.startswith("/") else os.path.join(self.root, "etc/ssh", pat)
                    for p in sorted(glob.glob(glob.escape(base).replace("[*]", "*").replace("[?]", "?"))):
                        if os.path.isfile(p):
                            self.read(p, depth + 1, block)
                continue
            if kw in SINGLE:
                in_match = SINGLE[kw][1]
            elif kw in LIST:
                in_match = LIST[kw][1]
            else:
                raise ConfError(f"error: {where}: unknown keyword {m.group(1)}")
            if block is not None and not in_match:
                raise ConfError(f"error: {where}: {m.group(1)} is not allowed in Match")
            if block is False:
                continue
            if kw in LIST:
                self.lists[kw] += args
                self.given.add(kw)
            else:
                target = self.global_vals if block is None else self.match_vals
                target.setdefault(kw, " ".join(args))

    def rel(self, path):
        return "/" + os.path.relpath(path, self.root)

    def result(self):
        out = {}
        for k, (d, _) in SINGLE.items():
            out[k] = self.match_vals.get(k, self.global_vals.get(k, d))
        for k, (d, _) in LIST.items():
            out[k] = self.lists[k] if k in self.given else list(d)
        out["access"] = self.access(out)
        return out

    def access(self, out):
        def user_entry(e):
            u, _, h = e.partition("@")
            if not wild(u, self.user):
                return False
            if not h:
                return True
            if "/" in h:
                return addr_match(h, self.addr)
            return wild(h, self.host, True) or wild(h, self.addr)

        if any(user_entry(e) for e in out["denyusers"]):
            return "deny"
        if out["allowusers"] and not any(user_entry(e) for e in out["allowusers"]):
            return "deny"
        if any(wild(e, g) for e in out["denygroups"] for g in self.groups):
            return "deny"
        if out["allowgroups"] and not any(wild(e, g) for e in out["allowgroups"] for g in self.groups):
            return "deny"
        return "allow"


def main(argv):
    if len(argv) != 5:
        print("usage: sshd-eff ROOT USER HOST ADDR", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    ev = Evaluator(root, *argv[2:])
    try:
        ev.read(os.path.join(root, "etc/ssh/sshd_config"))
    except ConfError as e:
        print(e, file=sys.stderr)
        return 1
    print(json.dumps(ev.result(), indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
